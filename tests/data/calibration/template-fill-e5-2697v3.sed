# Fills the skeleton of `dcsim calibrate cpu --template DIR` (its machine.xml) with the figures of
# calibration/xeon-e5-2697v3/machine.xml (ESCAPE D3.5 Tables 21, 25-29 and the borrowed Table 32):
# what a user does by hand (tests/cli/calibrate_template_filled.cmd). Every FILL gets a value and
# its source; the one further clock line per measured frequency is added as the template's comment
# says.
s|name="FILL" model="FILL" microarch="FILL"|name="e5-2697v3-from-template" model="Intel Xeon E5-2697 v3" microarch="Haswell EP"|
s|<comment>FILL:[^<]*</comment>|<comment>Intel Xeon E5-2697 v3 filled in from calibration/xeon-e5-2697v3 (ESCAPE D3.5 Tables 21, 25-29 and the borrowed i7-4700EQ Table 32).</comment>|
/<spec /s|cores-per-socket="FILL" sockets="FILL" threads-per-core="FILL" nominal-ghz="FILL" l1-byte="FILL" l2-byte="FILL" l3-byte="FILL" isa="FILL" source="FILL"|cores-per-socket="14" sockets="2" threads-per-core="2" nominal-ghz="2.6" l1-byte="32768" l2-byte="262144" l3-byte="36700160" isa="AVX2" source="D3.5 Table 21; 2 threads per core: Haswell-EP Hyper-Threading (anandtech.com/show/8423: 18 cores, 36 logical)"|
/<isa /s|flop-per-cycle="FILL" source="FILL"|flop-per-cycle="16" source="two 256-bit FMA units: 2 x 4 doubles x 2 flop (Kerncraft HaswellEP_E5-2695v3.yml: DP total 16)"|
/<memory /s|peak-bps="FILL" source="FILL"|peak-bps="68.26e9" source="4 channels x DDR4-2133 x 8 B per socket (D3.5 Table 21: DDR4 2133)"|
s|<freq id="FILL" ghz="FILL" source="FILL"/>|<freq id="1.2" ghz="1.2" source="D3.5 Tables 25-29"/>\n    <freq id="1.4" ghz="1.4" source="D3.5 Tables 25-29"/>\n    <freq id="1.6" ghz="1.6" source="D3.5 Tables 25-29"/>\n    <freq id="1.8" ghz="1.8" source="D3.5 Tables 25-29"/>\n    <freq id="2.0" ghz="2.0" source="D3.5 Tables 25-29"/>\n    <freq id="2.4" ghz="2.4" source="D3.5 Tables 25-29"/>\n    <freq id="2.6" ghz="2.6" source="D3.5 Tables 25-29"/>|
/<freq id="turbo"/s|ghz="FILL" label="turbo" source="FILL"|ghz="3.6" label="turbo" source="assumption: Intel's maximum turbo of the E5-2697 v3, consistent with D3.5 Table 25 (28.8 GFLOP/s = 8 flop/cycle x 3.6 GHz)"|
/quantity="flops"/s|source="FILL"|source="D3.5 Table 25"|
/quantity="L1"/s|source="FILL"|source="D3.5 Table 26"|
/quantity="L2"/s|source="FILL"|source="D3.5 Table 27"|
/quantity="L3"/s|source="FILL"|source="D3.5 Table 28"|
/quantity="DRAM"/s|source="FILL"|source="D3.5 Table 29"|
/<perf-fit /s|placement="FILL" source="FILL"|placement="compact" source="D3.5 Tables 25-29 run 1..14 threads on one socket (DRAM saturates at 57-59 GB/s, below one socket's 68 GB/s peak); a second socket adds its own bandwidth"|
/<energy /s|freq="FILL" other-frequencies="FILL" source="FILL"|freq="2.6" other-frequencies="same" source="D3.5 Table 32 (i7-4700EQ), borrowed as in D3.5 6.1.2 Tables 42-43; power taken as independent of frequency (assumption)"|
/<power-spec /s|tdp-w="FILL" source="FILL"|tdp-w="145" source="Intel datasheet TDP 145 W (quattor template-library-standard xeon_e5_2697v3.pan)"|
/<power-model /s|source="FILL"|source="fitted to power.csv, the i7-4700EQ RAPL table D3.5 borrows for this CPU (Tables 32, 42-43): a test of the fit, not this CPU's power"|
/<package /s|voltage-slope="FILL" source="FILL"|voltage-slope="0.5" source="voltage slope 0.5: assumption (Hager et al. 2014, quoted in D3.5 5.1)"|
/<dram /s|source="FILL"|source="energy per byte against DRAM.csv (D3.5 Table 29) at 2.6 GHz"|
/<node /s|base-w="FILL" load-overhead="FILL" source="FILL"|base-w="41.3" load-overhead="0.207" source="assumption: the Haswell-EP node of calibration/xeon-e5-2640v3 (TU Dresden Taurus, tud-zih-energy/2021-FIRESTARTER-2)"|
