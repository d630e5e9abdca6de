# roofline --cores all: the CPU's full node (2 sockets x 14 cores), read by the one rule model and sweep use (issue 40)
dcsim roofline --cpu xeon-e5-2697v3 --cores all
