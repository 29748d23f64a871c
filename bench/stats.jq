# Summary statistics of an array of numbers (nearest-rank percentiles), for
# the benchmark scripts: jq -L bench 'include "stats"; ... | stats'.
def pct($s; $p): $s[([(($p * ($s | length)) | ceil) - 1, 0] | max)];
def stats:
	sort as $s | ($s | length) as $n |
	if $n == 0 then {n: 0}
	else {n: $n, min: $s[0], median: pct($s; 0.5), p99: pct($s; 0.99),
	      max: $s[-1], mean: (($s | add) / $n | floor)}
	end;
