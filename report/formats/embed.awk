# Text files as C strings: page.js becomes
#   const char html_page_js[] = "line\n" ...;
# for report/formats/html.c, which writes the page from them.
function flush() {
	if (name != "")
		print ";"
}
FNR == 1 {
	flush()
	name = FILENAME
	sub(/.*\//, "", name)
	gsub(/[^A-Za-z0-9]/, "_", name)
	name = "html_" name
	print "extern const char " name "[];"
	print "const char " name "[] = \"\""
}
# Backslash, quote and question mark (no trigraphs) escaped, one by one:
# gsub()'s replacement text treats backslashes differently in each awk.
function esc(s,    out, c, i) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" || c == "\"" || c == "?")
			out = out "\\" c
		else
			out = out c
	}
	return out
}
{
	print "\t\"" esc($0) "\\n\""
}
END {
	flush()
}
