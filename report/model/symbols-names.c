// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF's names: a function's name qualified with the scopes that hold it
 * (namespaces, classes, lambdas), indexed a CU at a time, and a line
 * table's source paths made whole.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buildid.h"
#include "debugcache.h"
#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"
#include "gosym.h"
#include "xalloc.h"


#include "symbols-int.h"

/* DIEs that hold functions without being one: C++ namespaces and classes. */
int sy_is_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_interface_type;
}

/* A function's scope in its CU: "geo::Grid::" for a DIE offset (cu set: the CU itself, indexed). */
struct scope_ent {
	const void *dw;
	uint64_t off;
	const char *prefix;	/* interned; "" at top level */
};

/* An object's scopes ("ns::Class::") of functions named without a linkage name. */
struct scopes {
	struct scope_ent *scopes;	/* the items of stab */
	size_t nscopes, scopes_cap;
	struct htab stab;
};

#define SCOPE_CU (1ULL << 63)	/* marks a CU's own entry: its scopes are indexed */

static void die_origin(Dwarf_Die *die, Dwarf_Die *out);

static struct scope_ent *scope_find(struct elfobj *obj, const void *dw, uint64_t off,
				    struct htab_probe *p)
{
	uint32_t i;

	htab_probe(&obj->sc->stab, off ^ (uint64_t)(uintptr_t)dw, p);
	while (htab_next(&obj->sc->stab, p, &i))
		if (obj->sc->scopes[i].dw == dw && obj->sc->scopes[i].off == off)
			return &obj->sc->scopes[i];
	return NULL;
}

static void scope_add(struct elfobj *obj, const void *dw, uint64_t off, const char *prefix)
{
	struct htab_probe p;

	if (scope_find(obj, dw, off, &p))
		return;
	if (obj->sc->nscopes == obj->sc->scopes_cap) {
		obj->sc->scopes_cap = obj->sc->scopes_cap ? 2 * obj->sc->scopes_cap : 64;
		obj->sc->scopes = xreallocarray(obj->sc->scopes, obj->sc->scopes_cap, sizeof(*obj->sc->scopes));
	}
	obj->sc->scopes[obj->sc->nscopes].dw = dw;
	obj->sc->scopes[obj->sc->nscopes].off = off;
	obj->sc->scopes[obj->sc->nscopes].prefix = prefix;
	htab_put(&obj->sc->stab, &p, (uint32_t)obj->sc->nscopes++);
}

/* Whether the class die has an operator(): a closure, as C++ lambdas are. */
static int has_call_operator(Dwarf_Die *die)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return 0;
	do {
		const char *n = dwarf_diename(&c);

		if (dwarf_tag(&c) == DW_TAG_subprogram && n && !strcmp(n, "operator()"))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/*
 * One walk of a CU: the scope of every subprogram in it, from the names
 * of the namespaces, classes and functions around it (a lambda's
 * operator() is in its closure's class, in the function that made it).
 */
static void index_scopes(struct symbols *s, struct elfobj *obj, Dwarf_Die *parent, char *buf,
			 size_t len, size_t cap, int depth, long *budget)
{
	Dwarf_Die c;

	if (depth > 24 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *n;
		size_t l;
		char saved[1024];
		size_t saved_len = len;

		memcpy(saved, buf, len + 1);
		l = len;
		if (tag == DW_TAG_subprogram)
			scope_add(obj, dwarf_cu_getdwarf(c.cu), dwarf_dieoffset(&c),
				  strpool_intern_len(s->pool, buf, len));
		if (!dwarf_haschildren(&c))
			continue;
		if (sy_is_container(tag) || tag == DW_TAG_subprogram) {
			n = dwarf_diename(&c);
			/*
			 * A function defined out of its class or namespace: its scope
			 * is its declaration's, met earlier in the walk.
			 */
			if (tag == DW_TAG_subprogram && n) {
				Dwarf_Die decl;
				struct htab_probe p;
				const struct scope_ent *e;

				die_origin(&c, &decl);
				if (dwarf_dieoffset(&decl) != dwarf_dieoffset(&c) &&
				    (e = scope_find(obj, dwarf_cu_getdwarf(decl.cu),
						    dwarf_dieoffset(&decl), &p)) &&
				    strlen(e->prefix) < cap) {
					len = strlen(e->prefix);
					memcpy(buf, e->prefix, len + 1);
				}
			}
			if (!n && tag == DW_TAG_namespace)
				n = "(anonymous namespace)";
			if (!n && (tag == DW_TAG_class_type || tag == DW_TAG_structure_type))
				n = has_call_operator(&c) ? "{lambda}" : "{unnamed type}";
			l = len;
			if (n && len + strlen(n) + 3 < cap) {
				memcpy(buf + len, n, strlen(n));
				memcpy(buf + len + strlen(n), "::", 3);
				l = len + strlen(n) + 2;
			}
			index_scopes(s, obj, &c, buf, l, cap, depth + 1, budget);
			memcpy(buf, saved, saved_len + 1);
			len = saved_len;
		} else if (tag == DW_TAG_lexical_block) {
			index_scopes(s, obj, &c, buf, len, cap, depth + 1, budget);
		}
	} while (--*budget > 0 && dwarf_siblingof(&c, &c) == 0);
}

/*
 * The declaration a DIE stands for, through abstract origins (an inlined
 * call's function) and specifications (a member defined out of its class).
 */
static void die_origin(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die tmp;

	*out = *die;
	for (int k = 0; k < 4; k++) {
		if ((dwarf_attr(out, DW_AT_abstract_origin, &a) ||
		     dwarf_attr(out, DW_AT_specification, &a)) && dwarf_formref_die(&a, &tmp))
			*out = tmp;
		else
			break;
	}
}

/* name within the scopes around die's declaration: "geo::Grid::cell". */
static const char *qualified(struct symbols *s, struct elfobj *obj, Dwarf_Die *die,
			     const char *name)
{
	Dwarf_Die decl, cudie;
	struct htab_probe p;
	struct scope_ent *e;
	const void *dw;
	uint64_t off;
	char buf[1024];

	die_origin(die, &decl);
	if (!dwarf_diecu(&decl, &cudie, NULL, NULL))
		return sy_intern_name(s, name);
	/* C has no scopes to name: its functions are what the symbols say */
	switch (dwarf_srclang(&cudie)) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
	case DW_LANG_Rust:
		break;
	default:
		return sy_intern_name(s, name);
	}
	dw = dwarf_cu_getdwarf(decl.cu);
	off = dwarf_dieoffset(&decl);
	e = scope_find(obj, dw, off, &p);
	if (!e) {
		uint64_t cu = dwarf_dieoffset(&cudie) | SCOPE_CU;

		if (!scope_find(obj, dw, cu, &p)) {
			long budget = 1L << 20;	/* DWARF is input: its walk is bounded */

			buf[0] = '\0';
			index_scopes(s, obj, &cudie, buf, 0, sizeof(buf), 0, &budget);
			scope_add(obj, dw, cu, "");
			e = scope_find(obj, dw, off, &p);
		}
	}
	if (!e || !e->prefix[0])
		return sy_intern_name(s, name);
	snprintf(buf, sizeof(buf), "%s%s", e->prefix, name);
	return sy_intern_name(s, buf);
}

/*
 * Function name of a DIE: the linkage name when there is one, so that it
 * reads as the symbol table's does, through abstract origins; else its
 * name within the namespaces and classes around its declaration, as the
 * demangled linkage name would read.
 */
const char *sy_die_name(struct symbols *s, struct elfobj *obj, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	if (!obj->sc)
		obj->sc = xcalloc(1, sizeof(*obj->sc));
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (name && name[0])
		return sy_intern_name(s, name);
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name && name[0] ? qualified(s, obj, die, name) : NULL;
}

const char *sy_src_path(struct symbols *s, const char *src, const char *comp_dir)
{
	char *buf, *out;
	size_t n, len, k = 0;
	const char *p;
	const char *r;

	if (!src)
		return NULL;
	if (src[0] == '/' || !comp_dir || comp_dir[0] != '/')
		return strpool_intern_text(s->pool, src, strlen(src));
	n = strlen(comp_dir) + 1 + strlen(src);
	buf = xmalloc(n + 1);
	snprintf(buf, n + 1, "%s/%s", comp_dir, src);
	/* lexically: "." and empty parts dropped, ".." takes the part before it */
	out = xmalloc(n + 2);
	for (p = buf; *p;) {
		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (k > 0 && out[k - 1] != '/')
				k--;
			if (k > 0)
				k--;
		} else {
			out[k++] = '/';
			memcpy(out + k, p, len);
			k += len;
		}
		p += len;
	}
	if (!k)
		out[k++] = '/';
	r = strpool_intern_text(s->pool, out, k);
	free(buf);
	free(out);
	return r;
}

void sy_free_scopes(struct elfobj *obj)
{
	if (!obj->sc)
		return;
	free(obj->sc->scopes);
	htab_release(&obj->sc->stab);
	free(obj->sc);
	obj->sc = NULL;
}
