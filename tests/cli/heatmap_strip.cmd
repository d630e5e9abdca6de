# Issue 26, item 8: the README's sweep has one cores value; its heat map draws each panel as a strip
# of cells (boxes, not gnuplot's image, which needs 2 x 2 pixels) and the picture is a PNG with the
# provenance chunks. Needs gnuplot.
dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m --nodes 1,2,4,8,16 --freq nominal --quiet --heatmap $TMPDIR/h.png > /dev/null; echo "exit $?"; head -c 8 $TMPDIR/h.png | od -An -tx1; grep -ac 'tEXtSoftware' $TMPDIR/h.png
