# OMP_NUM_THREADS past the ceiling is cut to it (libgomp failed, or crashed, creating 30000 threads)
OMP_NUM_THREADS=100000 dcsim sweep workflows/bifft.xml --nodes 1,2 --quiet --format csv | grep -v '^#' | cut -d, -f1-6
