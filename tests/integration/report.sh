#!/usr/bin/env bash
# tests/run: sealed
# abiwatch report: three snapshots (one run here, two edited copies that
# stand for other kernels) as one page, opened in headless Chromium: the
# rendered table must have a column per kernel, in version order, the
# edited cells marked as changed, rows grouped by family and probe and
# linked to their catalogue entries, which the page carries (each once),
# and nothing fetched from anywhere; without a catalogue the page says so
# and links nowhere.
# The screenshot goes to build/report-test/report.png.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
shots=build/report-test
mkdir -p "$shots"

"$abiwatch" report --help >"$work/out" && grep -q -- '--catalogue' "$work/out" && ok "report --help" ||
	bad "report --help"
"$abiwatch" report -o "$work/x.html" >/dev/null 2>&1; [[ $? == 2 ]] && ok "no snapshot: exit 2" || bad "no snapshot"
"$abiwatch" report "$work/a.snap" >/dev/null 2>&1; [[ $? == 2 ]] && ok "no -o: exit 2" || bad "no -o"
echo junk >"$work/junk.snap"
"$abiwatch" report -o "$work/x.html" "$work/junk.snap" 2>"$work/err"; rc=$?
[[ $rc == 2 ]] && grep -q 'junk.snap:1' "$work/err" && ok "a bad snapshot is named with its line" ||
	bad "bad snapshot: exit $rc: $(cat "$work/err")"

# A snapshot edited by sed, its keys sorted again below its header.
resort() { local f; f=$(cat); { grep '^abiwatch-snapshot ' <<<"$f"; grep -v '^abiwatch-snapshot ' <<<"$f" | LC_ALL=C sort; }; }

# Three "kernels": this one, and copies claiming to be 6.1 and 6.12 VMs.
"$abiwatch" run mqueue -o "$work/host.snapshot" >/dev/null
[[ -s $work/host.snapshot ]] || { echo "FAIL: abiwatch run wrote no snapshot"; exit 1; }
sed -e 's/^env\.kernel\.release = .*/env.kernel.release = 6.1.0-99-test/' \
    -e 's/^obs\.mqueue\.noattr\.maxmsg = .*/obs.mqueue.noattr.maxmsg = 7/' \
    -e 's/^check\.mqueue\.attr\.einval_above_msg_max = .*/check.mqueue.attr.einval_above_msg_max = fail: expected EINVAL, got success/' \
    "$work/host.snapshot" | sed '/^env\.kernel\.version/a env.vm.accel = tcg' | resort >"$work/k61.snapshot"
sed -e 's/^env\.kernel\.release = .*/env.kernel.release = 6.12.999-test/' \
    "$work/host.snapshot" | sed '/^env\.kernel\.version/a env.vm.accel = tcg' | resort >"$work/k612.snapshot"
page=$shots/report.html
# Given out of order: the page sorts the columns by release.  --all:
# every row, the unchanged ones too.
"$abiwatch" report --all --title "report test" -o "$page" "$work/host.snapshot" "$work/k612.snapshot" "$work/k61.snapshot"
rc=$?
[[ $rc == 0 && -s $page ]] && ok "report written ($(wc -c <"$page") bytes)" || { echo "FAIL: report exit $rc"; exit 1; }

# Static and self-contained.
grep -qiE '<script|<link|<img|<iframe|@import|url\(' "$page" && bad "the page loads something" ||
	ok "no script, stylesheet link, image or import"
grep -qE '(src|href)="(https?:)?//' "$page" && bad "the page refers to the network" || ok "no network address"

chromium=$(command -v chromium || command -v chromium-browser)
[[ -n $chromium ]] || skip "chromium not installed (scripts/install-deps installs it)"
profile=$(mktemp -d "$work/profile.XXXXXX")
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$profile")
url="file://$(realpath "$page")"
"$chromium" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/chromium.err"
rc=$?
[[ $rc == 0 && -s $work/dom.html ]] && ok "chromium rendered the page" ||
	{ echo "FAIL: chromium --dump-dom exit $rc"; tail -5 "$work/chromium.err"; exit 1; }
"$chromium" "${flags[@]}" --window-size=1400,1800 --screenshot="$(realpath "$shots")/report.png" \
	"$url" >/dev/null 2>>"$work/chromium.err"
[[ -s $shots/report.png ]] && ok "screenshot: $shots/report.png" || bad "no screenshot"

# The rendered table, as Chromium's DOM has it.
dom=$work/dom.html
heads=$(grep -o '<th class="kernel" data-col="[0-9]*"><span class="release">[^<]*' "$dom" | sed 's/.*>//')
echo "columns: $(echo $heads)"
[[ $(wc -l <<<"$heads") == 3 ]] && ok "3 kernel columns" || bad "columns: $heads"
[[ $(echo $heads) == "6.1.0-99-test 6.12.999-test $(uname -r)" ]] && ok "columns in version order" ||
	bad "column order: $(echo $heads)"
grep -q '<tr class="family" id="family-mqueue">' "$dom" && ok "a family group row" || bad "no family row"
grep -q '<tr class="probe" id="mqueue.noattr">' "$dom" && ok "a probe group row" || bad "no probe row"

row() { grep -o "<tr class=\"item [^\"]*\" id=\"$1\">.*</tr>" "$dom" | head -n 1; }
r=$(row mqueue.noattr.maxmsg)
[[ $r == *'class="item obs changed"'* ]] && ok "maxmsg row marked changed" || bad "maxmsg row: $r"
# 6.1 says 7, 6.12 says 10: the 6.12 cell (column 1) is the changed one.
[[ $r == *'<td class="obs" data-col="0"><span class="v">7</span>'* ]] && ok "6.1 cell shows 7" || bad "6.1 cell: $r"
[[ $r == *'<td class="obs changed" data-col="1"><span class="v">10</span>'* ]] && ok "6.12 cell marked changed" ||
	bad "6.12 cell: $r"
[[ $r == *'<td class="obs" data-col="2">'* ]] && ok "host cell (same as 6.12) not marked" || bad "host cell: $r"
r=$(row mqueue.attr.einval_above_msg_max)
[[ $r == *'<td class="fail" data-col="0"'* && $r == *'<td class="pass changed" data-col="1"'* ]] &&
	ok "a failed check, then its recovery marked" || bad "fail row: $r"
r=$(row mqueue.noattr.msgsize)
[[ $r == *'class="item obs"'* && $r != *changed* ]] && ok "an unchanged row is not marked" || bad "msgsize row: $r"

# Links point at the item's catalogue entry, on the page: read from
# docs/catalogue.md, its meaning and sources, once however many rows use it.
href=$(grep -o '<tr class="item [^"]*" id="mqueue.noattr.maxmsg"><th class="item"[^>]*><a href="[^"]*"' "$dom" |
	sed 's/.*href="//; s/"$//')
echo "link: $href"
[[ $href == '#cat-mqueue.noattr.maxmsg' ]] && ok "row linked to its catalogue entry on the page" || bad "link: $href"
grep -q '^#### mqueue.noattr.maxmsg$' docs/catalogue.md && ok "the heading exists in docs/catalogue.md" ||
	bad "no heading for mqueue.noattr.maxmsg"
entry=$(grep -o '<dt id="cat-mqueue.noattr.maxmsg">mqueue.noattr.maxmsg</dt>.*</dd>' "$page")
means=$(sed -n '/^#### mqueue.noattr.maxmsg$/,/^$/p' docs/catalogue.md | sed -n 's/^- Means: //p' |
	sed 's/`\([^`]*\)`/<code>\1<\/code>/g' | cut -c1-40)
[[ -n $means && $entry == *"<p>Means: $means"* && $entry == *'<p class="sources">Sources: '* ]] &&
	ok "the entry on the page: its meaning and sources (${entry:0:90}...)" || bad "entry: ${entry:-none}"
dup=$(grep -o '<dt id="[^"]*"' "$page" | sort | uniq -d)
[[ -z $dup ]] && ok "each entry once ($(grep -c '<dt id="cat-' "$page") entries)" || bad "entries twice: $dup"
grep -q '<h2 id="catalogue">' "$page" && ! grep -q 'catalogue-missing' "$page" &&
	ok "the catalogue section, no 'not embedded' note" || bad "catalogue section"
# No catalogue beside the binary: the page says why once, links nowhere,
# and the command warns.
mkdir -p "$work/bin" && cp "$abiwatch" "$work/bin/abiwatch"
"$work/bin/abiwatch" report -o "$work/nocat.html" "$work/host.snapshot" 2>"$work/nocat.err"; rc=$?
[[ $rc == 0 && $(grep -c 'id="catalogue-missing">Catalogue entries not embedded: no catalogue file' "$work/nocat.html") == 1 ]] &&
	! grep -q 'href="#cat-' "$work/nocat.html" && grep -q 'catalogue entries not embedded' "$work/nocat.err" &&
	ok "no catalogue: rendered, said once why, no row linked" || bad "no catalogue: exit $rc, $(cat "$work/nocat.err")"
n=$(grep -o 'id="changed-rows">[0-9]*' "$dom" | sed 's/.*>//')
[[ $n -ge 2 ]] && ok "$n rows differ" || bad "changed rows: $n"

# A pair where the new side lacks i386 support (hand-edited from this
# run, whatever this machine can do): one kernel change (msgsize), shown
# first and open; every 32-bit item folded under its cause, collapsed.
with_i386() { sed -e 's/^env\.i386 = .*/env.i386 = yes/' \
	-e 's/^check\.\(mqueue\.compat32\.[^ ]*\) = .*/check.\1 = pass/' \
	-e 's/^unobserved\.\(mqueue\.compat32\.[^ ]*\) = .*/obs.\1 = 32/'; }
without_i386() { sed -e 's/^env\.i386 = .*/env.i386 = no: this kernel runs no i386 programs (edited)/' \
	-e 's/^check\.\(mqueue\.compat32\.[^ ]*\) = .*/check.\1 = skip: needs i386: edited/' \
	-e 's/^obs\.\(mqueue\.compat32\.[^ ]*\) = .*/unobserved.\1 = skip: needs i386: edited/' \
	-e 's/^unobserved\.\(mqueue\.compat32\.[^ ]*\) = .*/unobserved.\1 = skip: needs i386: edited/' \
	-e 's/^obs\.mqueue\.noattr\.msgsize = .*/obs.mqueue.noattr.msgsize = 4096/'; }
sed 's/^env\.kernel\.release = .*/env.kernel.release = 6.12.998-i386/' "$work/host.snapshot" | with_i386 | resort >"$work/with.snapshot"
sed 's/^env\.kernel\.release = .*/env.kernel.release = 6.13.0-noi386/' "$work/host.snapshot" | without_i386 | resort >"$work/without.snapshot"
n32=$(grep -c '^[a-z]*\.mqueue\.compat32\.' "$work/without.snapshot")
causes=$shots/report-causes.html
"$abiwatch" report --title "report: a side without i386" -o "$causes" "$work/with.snapshot" "$work/without.snapshot" ||
	bad "report of the i386 pair failed"
"$abiwatch" diff "$work/with.snapshot" "$work/without.snapshot" >"$work/pair.diff"; rc=$?
[[ $rc == 1 ]] && ok "diff of the pair: exit 1 (msgsize is a kernel change)" || bad "diff of the pair: exit $rc"
"$chromium" "${flags[@]}" --dump-dom "file://$(realpath "$causes")" >"$work/causes.dom" 2>>"$work/chromium.err"
"$chromium" "${flags[@]}" --window-size=1400,900 --screenshot="$(realpath "$shots")/report-causes.png" \
	"file://$(realpath "$causes")" >/dev/null 2>>"$work/chromium.err"
[[ -s $shots/report-causes.png ]] && ok "screenshot of the first screen: $shots/report-causes.png" ||
	bad "no screenshot of the i386 pair"
cdom=$work/causes.dom
line=$(grep -o '<p class="pair-summary" id="pair-summary-1">[^<]*' "$cdom" | sed 's/.*">//')
[[ $line == "1 kernel change, 0 new failures (mqueue 1); "*" need i386 programs (not on the new side)" &&
   $line == "$(head -n 1 "$work/pair.diff")" ]] && ok "the pair's summary is diff's first line: $line" ||
	bad "pair summary: '$line' vs diff's '$(head -n 1 "$work/pair.diff")'"
kernel=$(grep -o '<li class="kernel-change" data-name="[^"]*"' "$cdom" | sed 's/.*data-name="//; s/"$//')
[[ $kernel == obs.mqueue.noattr.msgsize ]] && ok "the one kernel change listed: $kernel" || bad "kernel changes: $kernel"
folded=$(grep -c '<li class="env-change" data-name="[a-z]*\.mqueue\.compat32\.' "$cdom")
[[ $folded == "$n32" ]] && ok "all $n32 32-bit items folded under their cause" || bad "folded $folded of $n32"
pos() { grep -b -o "$1" "$cdom" | head -n 1 | cut -d: -f1; }
k=$(pos '<li class="kernel-change"'); d=$(pos '<details class="cause" data-cause="i386">'); r=$(pos '<table class="results"')
[[ -n $k && -n $d && -n $r && $k -lt $d && $d -lt $r ]] && ok "kernel change first, then the folded cause, then the results" ||
	bad "order: kernel $k, cause $d, results $r"
grep -q '<details class="cause" data-cause="i386" open' "$cdom" && bad "the cause is open" || ok "the cause is collapsed"
grep -qiE '<script|<link|<img|<iframe|@import|url\(' "$causes" && bad "the i386 page loads something" ||
	ok "the i386 page loads nothing"

# ---- the default page: what the kernel changed first, as small as the changes ----
small=$shots/report-changes.html
"$abiwatch" report --title "report: changes" -o "$small" "$work/host.snapshot" "$work/k612.snapshot" "$work/k61.snapshot" ||
	bad "the default report failed"
"$chromium" "${flags[@]}" --dump-dom "file://$(realpath "$small")" >"$work/small.dom" 2>>"$work/chromium.err"
sdom=$work/small.dom
(($(wc -c <"$small") * 2 < $(wc -c <"$page"))) && ok "the default page ($(wc -c <"$small") bytes) is under half of --all's ($(wc -c <"$page"))" ||
	bad "default page $(wc -c <"$small") bytes, --all $(wc -c <"$page")"
spos() { grep -b -o "$1" "$sdom" | head -n 1 | cut -d: -f1; }
t=$(spos '<table class="summary" id="summary-table">'); k=$(spos '<li class="kernel-change"'); r=$(spos '<table class="results"')
[[ -n $t && -n $k && -n $r && $t -lt $k && $k -lt $r ]] && ok "the summary table first, then the changes, then the results" ||
	bad "order: summary $t, changes $k, results $r"
# 6.1 -> 6.12: maxmsg and the check (mqueue 2, a cell linked to the changes).
grep -q '<td class="count"><a href="#pair-1-mqueue"><b>2</b></a></td>' "$sdom" &&
	grep -q 'id="pair-1-mqueue"' "$sdom" && ok "the table counts mqueue 2 in the first pair, linked to its changes" ||
	bad "summary cell: $(grep -o '<td class="count">[^/]*' "$sdom" | head -3)"
grep -q '<details class="rank" data-rank="behaviour" open' "$sdom" && ok "behaviour changes folded open" || bad "no open behaviour rank"
rows=$(grep -o '<tr class="item [^"]*" id="[^"]*"' "$sdom" | sed 's/.*id="//; s/"$//' | sort | tr '\n' ' ')
[[ $rows == "mqueue.attr.einval_above_msg_max mqueue.noattr.maxmsg " ]] && ok "results: only the rows of kernel changes" ||
	bad "rows shown: $rows"
# One snapshot has no neighbour to differ from: its page shows every row.
one=$work/one.html
"$abiwatch" report -o "$one" "$work/host.snapshot" || bad "report of one snapshot failed"
n_one=$(grep -c '<tr class="item ' "$one"); n_items=$(grep -c '^[a-z]' "$work/host.snapshot")
((n_one > 0 && n_one * 2 > n_items)) && ok "one snapshot: every row ($n_one rows)" ||
	bad "one snapshot's page shows $n_one rows of $n_items lines"
"$chromium" "${flags[@]}" --window-size=1400,900 --screenshot="$(realpath "$shots")/report-changes.png" \
	"file://$(realpath "$small")" >/dev/null 2>>"$work/chromium.err"
[[ -s $shots/report-changes.png ]] && ok "first screen: $shots/report-changes.png" || bad "no screenshot of the default page"

# ---- in a real browser, measured: links, widths at 390 and 1400, contrast ----
# (Chromium headless lays a 390 window out at least 500 px wide: the lines
# give the width it measured.)
# A copy of each page with a script that measures what Chromium laid out
# and writes it into the DOM (the page itself has no script).
probe='<script>
function lum(c){var m=c.match(/[\d.]+/g).slice(0,3).map(Number).map(function(v){v/=255;return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4)});return 0.2126*m[0]+0.7152*m[1]+0.0722*m[2]}
function bg(e){for(;e;e=e.parentElement){var b=getComputedStyle(e).backgroundColor;if(b&&b!="transparent"&&!/, 0\)$/.test(b))return b}return "rgb(255, 255, 255)"}
addEventListener("load",function(){var out=[],vw=innerWidth;
document.querySelectorAll("a[href^=\"#\"]").forEach(function(a){var id=decodeURIComponent(a.getAttribute("href").slice(1));if(!document.getElementById(id))out.push("DEADLINK "+id)});
out.push("LINKS "+document.querySelectorAll("a[href^=\"#\"]").length);
out.push("PAGEWIDTH "+document.documentElement.scrollWidth+" "+vw);
document.querySelectorAll("table").forEach(function(t){var r=t.parentElement.getBoundingClientRect();if(r.right>vw+1)out.push("CUT "+(t.id||t.className)+" "+Math.round(r.right))});
var f=document.querySelector("table.results tbody tr.item th");if(f)out.push("FIRSTCOL "+Math.round(f.getBoundingClientRect().width)+" "+vw);
var worst=99,what="";document.querySelectorAll("body *").forEach(function(e){var t=false;e.childNodes.forEach(function(n){if(n.nodeType==3&&n.textContent.trim())t=true});if(!t)return;var a=lum(getComputedStyle(e).color),b=lum(bg(e)),r=(Math.max(a,b)+0.05)/(Math.min(a,b)+0.05);if(r<worst){worst=r;what=e.tagName+"."+e.className+" "+getComputedStyle(e).color+" on "+bg(e)}});
out.push("CONTRAST "+worst.toFixed(2)+" "+what);
var p=document.createElement("pre");p.id="measured";p.textContent=out.join("\n");document.body.appendChild(p)})
</script>'
measure() { # page width -> the measured lines
	local copy=$work/measure-$2-${1##*/}
	{ grep -v -e '^</body>$' -e '^</html>$' "$1"; printf '%s\n</body>\n</html>\n' "$probe"; } >"$copy"
	"$chromium" "${flags[@]}" --window-size="$2",844 --virtual-time-budget=5000 --dump-dom "file://$(realpath "$copy")" 2>>"$work/chromium.err" |
		sed -n '/<pre id="measured">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
}
for pg in "$small" "$page"; do
	for w in 390 1400; do
		m=$(measure "$pg" $w)
		name="${pg##*/} at $w"
		[[ -n $m ]] || { bad "$name: nothing measured"; continue; }
		dead=$(grep -c '^DEADLINK' <<<"$m")
		links=$(sed -n 's/^LINKS //p' <<<"$m")
		((dead == 0 && links > 0)) && ok "$name: all $links in-page links resolve" ||
			bad "$name: $dead of $links in-page links lead nowhere: $(grep '^DEADLINK' <<<"$m" | head -3 | tr '\n' ' ')"
		read -r pw vw <<<"$(sed -n 's/^PAGEWIDTH //p' <<<"$m")"
		((pw <= vw)) && ok "$name: the page is ${pw}px wide, no wider than the window" || bad "$name: the page is ${pw}px wide in ${vw}px"
		cut=$(grep '^CUT' <<<"$m")
		[[ -z $cut ]] && ok "$name: no table cut off" || bad "$name: $cut"
		read -r fc vw <<<"$(sed -n 's/^FIRSTCOL //p' <<<"$m")"
		[[ -n $fc ]] && ((fc * 2 <= vw)) && ok "$name: first column ${fc}px of ${vw}px" || bad "$name: first column ${fc:-?}px of ${vw}px"
		read -r ratio rest <<<"$(sed -n 's/^CONTRAST //p' <<<"$m")"
		awk -v r="$ratio" 'BEGIN { exit !(r >= 4.5) }' && ok "$name: lowest text contrast $ratio:1 ($rest)" ||
			bad "$name: text contrast $ratio:1: $rest"
	done
done
"$chromium" "${flags[@]}" --window-size=390,844 --screenshot="$(realpath "$shots")/report-390.png" \
	"file://$(realpath "$small")" >/dev/null 2>>"$work/chromium.err"
[[ -s $shots/report-390.png ]] && ok "phone screenshot: $shots/report-390.png" || bad "no screenshot at 390"
exit $status
