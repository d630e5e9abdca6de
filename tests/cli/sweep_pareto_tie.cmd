# the same energy up to rounding on 4 and 8 nodes, 8 nodes twice as fast: only 8 nodes is on the front
dcsim sweep workflows/sh-tco639.xml --cpu xeon-gold-6148 --nodes 4,8 --format csv
