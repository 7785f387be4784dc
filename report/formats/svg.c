// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format svg: a flame graph of the first event, as a self-contained
 * interactive SVG that needs nothing but a browser. The SVG carries each frame's place in samples (data-x,
 * data-w) and depth (data-d); a small script lays them out for the zoom,
 * so that the file stands alone: no network, no fonts, nothing to fetch.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "format.h"
#include "htab.h"
#include "strpool.h"
#include "utf8.h"
#include "xalloc.h"

#define SVG_WIDTH	1200
#define FRAME_H		16
#define PAD_TOP		44
#define PAD_BOTTOM	28
#define PAD_SIDE	10
#define MIN_WIDTH	0.1	/* px: narrower frames are left out of the file */
/*
 * px: a frame's children narrower than this are drawn as one frame,
 * "[N frames under 0.5 px]": too narrow to see or to click, they made a
 * JVM's flame graph 9 MB of 24,000 frames. Zooming shows what it holds
 * only as a count; prof report -g or --tree has them all.
 */
#define MERGE_WIDTH	0.5

/* --- SVG ---------------------------------------------------------------- */

void flame_put_xml(const char *s, FILE *out)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int n = utf8_len(s);

		if (n == 0)
			fputs(UTF8_REPLACEMENT, out);	/* else the file is not well-formed */
		else if (n > 1)
			fwrite(s, 1, (size_t)n, out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c < 0x20)
			putc('?', out);	/* not allowed in XML 1.0 */
		else
			putc(c, out);
		s += n ? n : 1;
	}
}

/* A colour by kind, varied by the name so that neighbours differ (flamegraph.pl's palettes). */
static void colour(const struct ctree_node *n, char *buf, size_t len)
{
	uint64_t h = htab_hash_bytes(n->name, strlen(n->name));
	double v1 = (double)(h & 0xff) / 255, v2 = (double)(h >> 8 & 0xff) / 255;

	switch (frame_kind(n->flags)) {
	case KIND_KERNEL:	/* orange */
		snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(50 * v1), 110 + (int)(60 * v2), 30);
		break;
	case KIND_INLINED:	/* aqua */
		snprintf(buf, len, "rgb(%d,%d,%d)", 60 + (int)(50 * v1), 170 + (int)(50 * v2),
			 170 + (int)(50 * v2));
		break;
	case KIND_UNKNOWN:	/* grey */
		snprintf(buf, len, "rgb(%d,%d,%d)", 170 + (int)(30 * v1), 170 + (int)(30 * v1),
			 170 + (int)(30 * v1));
		break;
	case KIND_ROOT:	/* the root and commands: lavender */
		snprintf(buf, len, "rgb(%d,%d,%d)", 190 + (int)(20 * v1), 190 + (int)(20 * v1), 230);
		break;
	default:		/* user code: hot */
		snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(50 * v1), (int)(230 * v2),
			 (int)(55 * v1));
		break;
	}
}

static const char *const kind_names[] = { "root", "user", "kernel", "inlined", "unknown" };

struct svg {
	const struct ctree *st;
	const struct flame_opts *o;
	FILE *out;
	double scale;		/* px per sample (or nanosecond) */
	uint64_t total;
	int height, inverted, max_depth, by_period;
	int pad_top;		/* room for the title, subtitle and legend */
	uint64_t merged;	/* frames drawn as one with their narrow siblings */
	uint64_t left_out;	/* frames too narrow even so */
};

/* What a frame weighs: its samples, or their nanoseconds. */
static uint64_t weight(const struct ctree_node *n, int by_period)
{
	return by_period ? n->period : n->samples;
}

/* The frames under id, itself included. */
static uint64_t count_frames(const struct ctree *st, size_t id)
{
	uint64_t k = 1;

	for (size_t c = ctree_node(st, id)->first_child; c; c = ctree_node(st, c)->next_sibling)
		k += count_frames(st, c);
	return k;
}

static int depth_of(const struct ctree *st, size_t id, double scale, int by_period)
{
	const struct ctree_node *n = ctree_node(st, id);
	uint64_t narrow = 0;
	int d = 0;

	for (size_t c = n->first_child; c; c = ctree_node(st, c)->next_sibling) {
		uint64_t w = weight(ctree_node(st, c), by_period);

		if ((double)w * scale >= MERGE_WIDTH) {
			int k = depth_of(st, c, scale, by_period) + 1;

			if (k > d)
				d = k;
		} else {
			narrow += w;
		}
	}
	if ((double)narrow * scale >= MIN_WIDTH && d < 1)
		d = 1;	/* the frame they are merged into */
	return d;
}

/* The frame of children too narrow to draw, merged (MERGE_WIDTH): nframes, w wide, at x. */
static void svg_merged(struct svg *v, uint64_t nframes, uint64_t w, uint64_t x, int depth)
{
	double px = PAD_SIDE + (double)x * v->scale, pw = (double)w * v->scale;
	int y = v->inverted ? v->pad_top + depth * FRAME_H
			    : v->height - PAD_BOTTOM - (depth + 1) * FRAME_H;

	fprintf(v->out, "<g class=\"f\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64 "\" data-d=\"%d\" "
		"data-k=\"merged\" data-n=\"[%" PRIu64 " frames under %.1f px]\"><title>[%" PRIu64
		" frames under %.1f px, merged] (", x, w, depth, nframes, MERGE_WIDTH, nframes,
		MERGE_WIDTH);
	if (v->by_period)
		fprintf(v->out, "%.3f ms", (double)w / 1e6);
	else
		fprintf(v->out, "%" PRIu64 " samples", w);
	fprintf(v->out, ", %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(200,200,200)\" rx=\"2\"/><text x=\"%.1f\" y=\"%d\"></text></g>\n",
		v->total ? 100.0 * (double)w / (double)v->total : 0, px, y, pw, FRAME_H - 1, px + 3,
		y + FRAME_H - 4);
	v->merged += nframes;
}

static void svg_node(struct svg *v, size_t id, uint64_t x, int depth)
{
	const struct ctree_node *n = ctree_node(v->st, id);
	uint64_t w = weight(n, v->by_period);
	double px = PAD_SIDE + (double)x * v->scale, pw = (double)w * v->scale;
	int y = v->inverted ? v->pad_top + depth * FRAME_H
			    : v->height - PAD_BOTTOM - (depth + 1) * FRAME_H;
	char fill[48];
	int chars = (int)((pw - 6) / 7.0);	/* 12 px sans: about 7 px a glyph */
	size_t len = strlen(n->name);
	uint64_t narrow = 0, nnarrow = 0;

	if (pw < MIN_WIDTH)
		return;
	if (v->o->fill)
		v->o->fill(v->o->ctx, id, n, fill, sizeof(fill));
	else
		colour(n, fill, sizeof(fill));
	fprintf(v->out, "<g class=\"f\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64 "\" data-d=\"%d\" "
		"data-k=\"%s\" data-n=\"", x, w, depth, kind_names[frame_kind(n->flags)]);
	flame_put_xml(n->name, v->out);
	fprintf(v->out, "\"><title>");
	flame_put_xml(n->name, v->out);
	fputs(frame_kind(n->flags) == KIND_INLINED  ? " (inlined)"
	      : frame_kind(n->flags) == KIND_KERNEL ? " [k]"
						    : "", v->out);
	if (v->by_period)
		fprintf(v->out, " (%.3f ms, %.2f%%)", (double)w / 1e6,
			v->total ? 100.0 * (double)w / (double)v->total : 0);
	else
		fprintf(v->out, " (%" PRIu64 " samples, %.2f%%)", w,
			v->total ? 100.0 * (double)w / (double)v->total : 0);
	if (v->o->note)
		v->o->note(v->o->ctx, id, v->out);
	fputs("</title>", v->out);
	fprintf(v->out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/><text x=\"%.1f\" y=\"%d\">", px, y, pw, FRAME_H - 1, fill, px + 3,
		y + FRAME_H - 4);
	if (chars >= 3) {
		if ((int)len <= chars) {
			flame_put_xml(n->name, v->out);
		} else {
			size_t at = utf8_cut(n->name, (size_t)chars - 2);
			char *cut = xmalloc(at + 3);

			memcpy(cut, n->name, at);	/* never inside a character */
			memcpy(cut + at, "..", 3);
			flame_put_xml(cut, v->out);
			free(cut);
		}
	}
	fputs("</text></g>\n", v->out);
	for (size_t c = n->first_child; c; c = ctree_node(v->st, c)->next_sibling) {
		uint64_t cw = weight(ctree_node(v->st, c), v->by_period);

		if ((double)cw * v->scale < MERGE_WIDTH) {
			narrow += cw;
			nnarrow += count_frames(v->st, c);
			continue;
		}
		svg_node(v, c, x, depth + 1);
		x += cw;
	}
	if (nnarrow && (double)narrow * v->scale >= MIN_WIDTH)
		svg_merged(v, nnarrow, narrow, x, depth + 1);
	else
		v->left_out += nnarrow;
}

/*
 * The viewer: zoom on click (the frame's ancestors stay, full width),
 * reset, search with a regular expression (matches in magenta, and the
 * share of samples they cover, nested matches counted once), a details
 * line on hover; Ctrl-F searches and Escape resets.
 */
static const char script[] =
"var svg, frames, W, total, det, mat, sbtn, fit;\n"
"function init(evt) {\n"
"  svg = document.documentElement; frames = document.getElementById('frames');\n"
"  W = +svg.getAttribute('width'); total = +frames.getAttribute('data-total');\n"
"  det = document.getElementById('details'); mat = document.getElementById('matched');\n"
"  sbtn = document.getElementById('search');\n"
"  document.getElementById('reset').addEventListener('click', function () { zoom(null); });\n"
"  sbtn.addEventListener('click', function () { search(null); });\n"
"  frames.addEventListener('click', function (e) { var g = e.target.closest('g.f');\n"
"    if (g) zoom(+g.dataset.d == 0 ? null : g); });\n"
"  var nar = document.getElementById('narrow');\n"
"  frames.addEventListener('mouseover', function (e) { var g = e.target.closest('g.f');\n"
"    if (g) { det.textContent = g.querySelector('title').textContent; if (nar) nar.style.opacity = 0; } });\n"
"  frames.addEventListener('mouseout', function () { det.textContent = ' '; if (nar) nar.style.opacity = 1; });\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && e.key == 'f') { e.preventDefault(); search(null); }\n"
"    if (e.key == 'Escape') { zoom(null); search(''); } });\n"
"  fit = 7;\n"
"  // #zoom=NAME&search=RE in the address: a link to a view (and a test's handle)\n"
"  var q = {}; location.hash.substring(1).split('&').forEach(function (kv) {\n"
"    var i = kv.indexOf('='); if (i > 0) q[kv.substring(0, i)] = decodeURIComponent(kv.substring(i + 1)); });\n"
"  if (q.zoom) { var gs = frames.querySelectorAll('g.f'), best = null;\n"
"    for (var i = 0; i < gs.length; i++) if (gs[i].dataset.n == q.zoom && (!best || +gs[i].dataset.w > +best.dataset.w)) best = gs[i];\n"
"    if (best) zoom(best); }\n"
"  if (q.search) search(q.search);\n"
"  svg.setAttribute('data-ready', '1');\n"
"}\n"
"function label(g, w) {\n"
"  var n = g.dataset.n, c = Math.floor((w - 6) / fit), t = g.querySelector('text');\n"
"  t.textContent = c < 3 ? '' : n.length <= c ? n : n.substring(0, c - 2) + '..';\n"
"}\n"
"function zoom(z) {\n"
"  var x0 = z ? +z.dataset.x : 0, w0 = z ? +z.dataset.w : total, d0 = z ? +z.dataset.d : 0;\n"
"  var scale = (W - 20) / w0, gs = frames.querySelectorAll('g.f');\n"
"  document.getElementById('reset').style.opacity = z ? 1 : 0.3;\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], x = +g.dataset.x, w = +g.dataset.w, d = +g.dataset.d;\n"
"    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"    var inside = x >= x0 && x + w <= x0 + w0 && d >= d0;\n"
"    var above = d < d0 && x <= x0 && x + w >= x0 + w0;\n"
"    if (!inside && !above) { g.style.display = 'none'; continue; }\n"
"    var px = 10 + (Math.max(x, x0) - x0) * scale;\n"
"    var pw = (Math.min(x + w, x0 + w0) - Math.max(x, x0)) * scale;\n"
"    if (pw < 0.1) { g.style.display = 'none'; continue; }\n"
"    g.style.display = ''; g.style.opacity = above ? 0.5 : 1;\n"
"    r.setAttribute('x', px.toFixed(1)); r.setAttribute('width', pw.toFixed(1));\n"
"    t.setAttribute('x', (px + 3).toFixed(1)); label(g, pw);\n"
"  }\n"
"}\n"
"function search(term) {\n"
"  if (term === null) term = prompt('Search for (a regular expression, empty to clear)', '');\n"
"  if (term === null) return;\n"
"  var re = null, gs = frames.querySelectorAll('g.f'), spans = [];\n"
"  try { re = term ? new RegExp(term) : null; } catch (e) { alert('Not a regular expression: ' + e.message); return; }\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.querySelector('rect');\n"
"    if (!g.dataset.fill) g.dataset.fill = r.getAttribute('fill');\n"
"    var hit = re && re.test(g.dataset.n);\n"
"    r.setAttribute('fill', hit ? 'rgb(230,0,230)' : g.dataset.fill);\n"
"    if (hit) spans.push([+g.dataset.x, +g.dataset.x + +g.dataset.w]);\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"  var covered = 0, end = -1;\n"
"  for (var j = 0; j < spans.length; j++) {\n"
"    if (spans[j][0] >= end) { covered += spans[j][1] - spans[j][0]; end = spans[j][1]; }\n"
"    else if (spans[j][1] > end) { covered += spans[j][1] - end; end = spans[j][1]; }\n"
"  }\n"
"  mat.textContent = re ? 'Matched: ' + (100 * covered / total).toFixed(2) + '%' : ' ';\n"
"  sbtn.textContent = re ? 'Search: ' + term : 'Search';\n"
"}\n";

int flame_svg(const struct ctree *st, size_t top, const struct flame_opts *o, FILE *out)
{
	struct svg v = { .st = st, .o = o, .out = out, .inverted = o->inverted,
			 .by_period = o->by_period };
	const struct ctree_node *root = ctree_node(st, top);

	v.total = weight(root, v.by_period);
	v.scale = v.total ? (double)(SVG_WIDTH - 2 * PAD_SIDE) / (double)v.total : 0;
	v.max_depth = v.total ? depth_of(st, top, v.scale, v.by_period) : 0;
	v.pad_top = o->legend ? PAD_TOP + 16 : PAD_TOP;
	v.height = v.pad_top + PAD_BOTTOM + (v.max_depth + 1) * FRAME_H;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" onload=\"init(evt)\">\n",
		SVG_WIDTH, v.height, SVG_WIDTH, v.height);
	fputs("<style>text { font-family: Verdana, Arial, sans-serif; font-size: 12px; fill: #000; }\n"
	      "#title { font-size: 17px; } .btn { cursor: pointer; } .btn:hover { fill: #06c; }\n"
	      "g.f { cursor: pointer; } g.f text { pointer-events: none; }\n"
	      "g.f:hover rect { stroke: #000; stroke-width: 0.5; }</style>\n", out);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f0\"/>\n",
		SVG_WIDTH, v.height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\">", SVG_WIDTH / 2);
	flame_put_xml(o->title ? o->title : "Flame Graph", out);
	fputs("</text>\n", out);
	if (o->subtitle) {
		fprintf(out, "<text id=\"subtitle\" x=\"%d\" y=\"38\" text-anchor=\"middle\" "
			"fill=\"#555\">", SVG_WIDTH / 2);
		flame_put_xml(o->subtitle, out);
		fputs("</text>\n", out);
	}
	if (o->legend) {
		fprintf(out, "<text id=\"legend\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
			"fill=\"#555\">", SVG_WIDTH / 2, o->subtitle ? 54 : 38);
		flame_put_xml(o->legend, out);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text id=\"reset\" class=\"btn\" x=\"%d\" y=\"22\" opacity=\"0.3\">Reset Zoom"
		"</text>\n", PAD_SIDE);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"22\" text-anchor=\"end\">Search"
		"</text>\n", SVG_WIDTH - PAD_SIDE);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", PAD_SIDE, v.height - 10);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n",
		SVG_WIDTH - PAD_SIDE, v.height - 10);
	fprintf(out, "<g id=\"frames\" data-total=\"%" PRIu64 "\">\n", v.total);
	if (v.total)
		svg_node(&v, top, 0, 0);
	fputs("</g>\n", out);
	/* what is not drawn one by one, said where the eye looks last */
	fprintf(out, "<text id=\"narrow\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\" "
		"data-merged=\"%" PRIu64 "\" data-left-out=\"%" PRIu64 "\">", SVG_WIDTH / 2,
		v.height - 10, v.merged, v.left_out);
	if (v.merged || v.left_out)
		fprintf(out, "%" PRIu64 " frames under %.1f px drawn merged, %" PRIu64 " under %.1f px "
			"left out: prof report -g shows them all", v.merged, MERGE_WIDTH, v.left_out,
			MIN_WIDTH);
	fputs("</text>\n</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

static int write_svg(const struct profile *p, const struct format_view *v, FILE *out)
{
	const struct profile_event *e = format_one_event(p, v, "flame graph");
	struct flame_opts fo = { .inverted = v->inverted };
	char sub[512];

	if (!e)
		return 0;
	fo.by_period = format_time_event(e->ev);
	ctree_sort(e->tree);
	if (fo.by_period)
		snprintf(sub, sizeof(sub), "%s, %.3f s in %" PRIu64 " samples, %s", e->ev->name,
			 (double)weight(ctree_node(e->tree, e->tree_root), 1) / 1e9,
			 hist_samples(e->hist), v->input);
	else
		snprintf(sub, sizeof(sub), "%s, %" PRIu64 " samples, %s", e->ev->name,
			 hist_samples(e->hist), v->input);
	fo.title = v->inverted ? "Icicle Graph" : "Flame Graph";
	fo.subtitle = sub;
	return flame_svg(e->tree, e->tree_root, &fo, out);
}

/* --- a diff: the differential flame graph ----------------------------------- */

struct diff_fill {
	const struct diff *d;
	struct diff_value *by_new;	/* by node of NEW's tree */
	size_t n;
	double max_delta;
};

static void diff_collect(struct diff_fill *c, const struct diff_node *x)
{
	struct diff_node *kids;
	size_t n;

	if (x->at[1] && x->at[1] < c->n) {
		c->by_new[x->at[1]] = x->d;
		if (x->d.significant && fabs(x->d.delta) > c->max_delta)
			c->max_delta = fabs(x->d.delta);
	}
	if (!x->at[1])
		return;		/* not drawn: sized by NEW */
	n = diff_children(c->d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		diff_collect(c, &kids[i]);
	free(kids);
}

/* Red for growth, blue for shrinkage, deeper for bigger changes; grey within noise. */
static void diff_fill(void *ctx, size_t id, const struct ctree_node *n, char *buf, size_t len)
{
	struct diff_fill *c = ctx;
	const struct diff_value *x = id < c->n ? &c->by_new[id] : NULL;
	double s;
	int k;

	(void)n;
	if (!x || !x->significant || x->delta == 0) {
		snprintf(buf, len, "rgb(225,225,225)");
		return;
	}
	s = c->max_delta > 0 ? fabs(x->delta) / c->max_delta : 1;
	k = 215 - (int)(185 * (s < 0.15 ? 0.15 : s));
	if (x->delta > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", k, k);
	else
		snprintf(buf, len, "rgb(%d,%d,255)", k, k);
}

static void diff_note(void *ctx, size_t id, FILE *out)
{
	struct diff_fill *c = ctx;
	const struct diff_value *x = id < c->n ? &c->by_new[id] : NULL;

	if (!x)
		return;
	fprintf(out, ": BASE %.2f%%, NEW %.2f%%, %+.2f points, %s", x->pct[0], x->pct[1], x->delta,
		x->significant ? (x->delta > 0 ? "grew" : "shrank") : "within noise");
}

static int write_svg_diff(const struct diff *d, const struct format_view *v, FILE *out)
{
	struct diff_fill c = { .d = d };
	struct diff_node root = diff_root(d);
	struct flame_opts fo = { .inverted = v->inverted, .fill = diff_fill, .note = diff_note,
				 .ctx = &c };
	char sub[1024];
	int ret;

	c.n = ctree_count(d->side[1].tree) + 1;
	c.by_new = xcalloc(c.n, sizeof(*c.by_new));
	diff_collect(&c, &root);
	ctree_sort(d->side[1].tree);
	fo.by_period = evkind_time(d->event, d->event_config);
	snprintf(sub, sizeof(sub), "%s: NEW %s%s (%" PRIu64 " samples) against BASE %s%s (%" PRIu64
		 " samples)", d->event, v->inputs[1][0], v->ninputs[1] > 1 ? " and more" : "",
		 d->side[1].samples, v->inputs[0][0], v->ninputs[0] > 1 ? " and more" : "",
		 d->side[0].samples);
	fo.title = v->inverted ? "Differential Icicle Graph" : "Differential Flame Graph";
	fo.subtitle = sub;
	fo.legend = d->abs ? "Frames sized by NEW. Red: grew, blue: shrank, in points of BASE's "
			     "total time (deeper: more); grey: within sampling noise"
			   : "Frames sized by NEW. Red: grew, blue: shrank, in share of the profile "
			     "(deeper: more); grey: within sampling noise";
	ret = flame_svg(d->side[1].tree, d->side[1].root, &fo, out);
	free(c.by_new);
	return ret;
}

const struct format format_svg = {
	.name = "svg",
	.help = "a flame graph of the first event (an interactive SVG)",
	.needs = FORMAT_STACKS | FORMAT_CHAINS,
	.write = write_svg,
	.diff_help = "a differential flame graph: sized by NEW, red grew, blue shrank",
	.diff_needs = FORMAT_STACKS,
	.write_diff = write_svg_diff,
};
