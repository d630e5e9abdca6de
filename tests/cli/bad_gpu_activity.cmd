# issue 25's inputs, one defect each: a GPU <launch> whose back-to-back cost exceeds the synchronous
# one, a <power-model> without the active idle it rests on, a kernel with part of its activity
# counts, counts without activity-source, a dwarf without a fitted launch cost on a GPU without
# <launch>, --gpu-power-activity under --d35 and on a GPU without <power-model> (--strict: without
# it the time is given and the energy marked unavailable, issue 26); an issue term on an
# architecture without <issue-width>, and an issue width of 0
export DCSIM_DATA=.
for f in tests/data/gpu/bad-launch.xml tests/data/gpu/bad-power-model.xml tests/data/dwarf/bad-activity.xml tests/data/dwarf/bad-activity-source.xml tests/data/gpu/bad-issue-arch.xml tests/data/gpu/bad-issue-width.xml; do dcsim validate $f 2>&1; echo "exit $?"; done
dcsim model --dwarf stencil7 --case 64 --gpu geforce-gtx970 2>&1; echo "exit $?"
dcsim model --dwarf transt-like --case 20 --gpu h100-sxm5 --d35 --gpu-power-activity 2>&1; echo "exit $?"
dcsim model --dwarf acraneb2 --case 5x5x80 --gpu a100-sxm4-80gb --gpu-power-activity --strict 2>&1; echo "exit $?"
