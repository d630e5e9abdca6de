# Issue 37, launch per GPU: the A100's published launch cost (PETSc ex1k on Perlmutter) gives its
# time the extrapolated band; a GPU with no figure of its own nor a published one borrows the
# nearest architecture's measured one (<launch borrowed-from>, a made-up test board with the A100's
# device): its time is spec, the widest band, and the source printed says whose figure it is.
dcsim model --dwarf acraneb2 --case 5x5x80 --gpu a100-sxm4-80gb | grep -E '^time'
dcsim model --dwarf acraneb2 --case 5x5x80 --gpu tests/data/gpu/borrowed-launch.xml | grep -E '^time'
dcsim validate tests/data/gpu/borrowed-launch.xml
