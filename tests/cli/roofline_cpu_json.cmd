dcsim roofline --cpu xeon-gold-6148 --cores 4 --dwarf spherical-harmonics --case TCO639 --format json
