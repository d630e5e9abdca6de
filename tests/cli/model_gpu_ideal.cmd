# --threading ideal on a GPU (doc/models.md "GPU: the algorithm done well"): ACRANEB2 at 200x200x80
# on the H100 as D3.5's OpenACC counters say the code ran (the default: 0.45 s, about 200 W) and as
# a well-ported code would (active lanes in full warps at the issue width, requested bytes only:
# about 0.034 s at the 700 W cap); a kernel measured on its GPU (transt-like) is the same in both;
# a GPU whose architecture has no <issue-width> refuses the ideal mode
dcsim model --dwarf acraneb2 --case 200x200x80 --gpu h100-sxm5 --format json | grep -E '^  "(time_s|gpu_j|gpu_fraction)"'
dcsim model --dwarf acraneb2 --case 200x200x80 --gpu h100-sxm5 --threading ideal
dcsim model --dwarf transt-like --case 200 --gpu h100-sxm5 --format json | grep -E '^  "(time_s|gpu_j)"'
dcsim model --dwarf transt-like --case 200 --gpu h100-sxm5 --threading ideal --format json | grep -E '^  "(time_s|gpu_j)"'
dcsim model --dwarf acraneb2 --case 200x200x80 --gpu mi250x-gcd --threading ideal
