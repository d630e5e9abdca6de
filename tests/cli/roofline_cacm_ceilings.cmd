# the CACM Opteron X2 with the ceilings of its Figure 2 and the 3D FFT placed on it
dcsim roofline --cpu opteron-2214 --cores 4 --dwarf cacm-fft --case 128
