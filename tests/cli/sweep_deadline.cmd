# --deadline-s in a sweep: points that miss it are infeasible (with the time they took), so the front holds only points that meet it; a note says heft does not plan with it
dcsim sweep workflows/alaro.xml --nodes 1,2,4,8 --deadline-s 5000 | grep -v "^  sha256"
