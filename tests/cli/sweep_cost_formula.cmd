# Issue 26, cost: every point's cost_usd is its energy at the kWh price plus the node price (2 x the
# EPYC 7763's list price, hw-profiles/cpu/epyc-7763.xml <price usd="7890">) x nodes x time over the
# lifetime (dcsim/cost.h), recomputed here by awk from the CSV's own columns to 1e-9 (relative).
# The tariff and lifetime are test values (0.2385 USD/kWh, 3.5 years), not claims.
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --nodes 1,4 --cores 8,64 --kwh-price 0.2385 --lifetime-years 3.5 --format csv --quiet | grep -v '^#' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { want = $c["energy_j"] / 3.6e6 * 0.2385 + 2 * 7890 * $c["nodes"] * $c["time_s"] / (3.5 * 365.25 * 86400); got = $c["cost_usd"]; d = got - want; if (d < 0) d = -d; print $c["nodes"] " nodes x " $c["cores"] " cores: cost " got " USD, formula " (d <= 1e-9 * want ? "holds" : "FAILS " want) }'
