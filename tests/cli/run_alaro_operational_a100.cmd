# ALARO operational with ACRANEB2 on one A100 80 GB (default GPU model; doc/models.md)
dcsim run workflows/alaro-operational-a100.xml
