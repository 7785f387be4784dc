// SPDX-License-Identifier: GPL-2.0-or-later
/* DWARF expressions of CFI rules, evaluated. See dwexpr.h. */
#include "config.h"

#include <dwarf.h>
#include <stdint.h>

#include "dwexpr.h"

/*
 * A CFI expression (DWARF 5 section 6.4.2: no calls, no TLS): the ops
 * libdw hands out for CFA and register rules, on a stack seeded with
 * nothing (the CFA's) or the CFA (a register's, whose first op pushes it).
 */
int dwexpr_eval(const struct dwexpr_env *c, const Dwarf_Op *ops, size_t nops, uint64_t *out)
{
	uint64_t st[64], a, b;
	size_t sp = 0;

#define PUSH(x) do { if (sp == 64) return -1; st[sp++] = (x); } while (0)
#define POP(x) do { if (!sp) return -1; (x) = st[--sp]; } while (0)
	for (size_t i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		uint8_t at = op->atom;

		if (at >= DW_OP_lit0 && at <= DW_OP_lit31) {
			PUSH((uint64_t)(at - DW_OP_lit0));
			continue;
		}
		if (at >= DW_OP_breg0 && at <= DW_OP_breg31) {
			if (c->reg(c->ctx, at - DW_OP_breg0, &a))
				return -1;
			PUSH(a + op->number);
			continue;
		}
		if (at >= DW_OP_reg0 && at <= DW_OP_reg31) {
			if (c->reg(c->ctx, at - DW_OP_reg0, &a))
				return -1;
			PUSH(a);
			continue;
		}
		switch (at) {
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u:
		case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_bregx:
			if (c->reg(c->ctx, (unsigned)op->number, &a))
				return -1;
			PUSH(a + op->number2);
			break;
		case DW_OP_regx:
			if (c->reg(c->ctx, (unsigned)op->number, &a))
				return -1;
			PUSH(a);
			break;
		case DW_OP_call_frame_cfa:
			PUSH(c->cfa);
			break;
		case DW_OP_dup:
			if (!sp)
				return -1;
			a = st[sp - 1];
			PUSH(a);
			break;
		case DW_OP_drop:
			POP(a);
			break;
		case DW_OP_over:
			if (sp < 2)
				return -1;
			a = st[sp - 2];
			PUSH(a);
			break;
		case DW_OP_pick:
			if (op->number >= sp)
				return -1;
			a = st[sp - 1 - op->number];
			PUSH(a);
			break;
		case DW_OP_swap:
			POP(a); POP(b); PUSH(a); PUSH(b);
			break;
		case DW_OP_rot:
			if (sp < 3)
				return -1;
			a = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3];
			st[sp - 3] = a;
			break;
		case DW_OP_deref:
			POP(a);
			if (c->read(c->ctx, a, &b))
				return -1;
			PUSH(b);
			break;
		case DW_OP_deref_size:
			POP(a);
			if (op->number < 1 || op->number > 8 || c->read(c->ctx, a, &b))
				return -1;
			if (op->number < 8)
				b &= (1ULL << (op->number * 8)) - 1;	/* little-endian machines */
			PUSH(b);
			break;
		case DW_OP_plus_uconst:
			POP(a); PUSH(a + op->number);
			break;
		case DW_OP_abs:
			POP(a); PUSH((int64_t)a < 0 ? -a : a);
			break;
		case DW_OP_neg:
			POP(a); PUSH(-a);
			break;
		case DW_OP_not:
			POP(a); PUSH(~a);
			break;
		case DW_OP_and: POP(b); POP(a); PUSH(a & b); break;
		case DW_OP_or: POP(b); POP(a); PUSH(a | b); break;
		case DW_OP_xor: POP(b); POP(a); PUSH(a ^ b); break;
		case DW_OP_plus: POP(b); POP(a); PUSH(a + b); break;
		case DW_OP_minus: POP(b); POP(a); PUSH(a - b); break;
		case DW_OP_mul: POP(b); POP(a); PUSH(a * b); break;
		case DW_OP_shl: POP(b); POP(a); PUSH(b < 64 ? a << b : 0); break;
		case DW_OP_shr: POP(b); POP(a); PUSH(b < 64 ? a >> b : 0); break;
		case DW_OP_shra:
			POP(b); POP(a);
			PUSH(b < 64 ? (uint64_t)((int64_t)a >> b) : (int64_t)a < 0 ? ~0ULL : 0);
			break;
		case DW_OP_div:
			POP(b); POP(a);
			if (!b || ((int64_t)b == -1 && a == 1ULL << 63))
				return -1;
			PUSH((uint64_t)((int64_t)a / (int64_t)b));
			break;
		case DW_OP_mod:
			POP(b); POP(a);
			if (!b)
				return -1;
			PUSH(a % b);
			break;
		case DW_OP_eq: POP(b); POP(a); PUSH(a == b); break;
		case DW_OP_ne: POP(b); POP(a); PUSH(a != b); break;
		case DW_OP_lt: POP(b); POP(a); PUSH((int64_t)a < (int64_t)b); break;
		case DW_OP_le: POP(b); POP(a); PUSH((int64_t)a <= (int64_t)b); break;
		case DW_OP_gt: POP(b); POP(a); PUSH((int64_t)a > (int64_t)b); break;
		case DW_OP_ge: POP(b); POP(a); PUSH((int64_t)a >= (int64_t)b); break;
		case DW_OP_skip:
		case DW_OP_bra: {
			/* to the op at byte offset op->offset + 3 + number */
			uint64_t to = op->offset + 3 + op->number;
			size_t k;

			if (at == DW_OP_bra) {
				POP(a);
				if (!a)
					break;
			}
			for (k = 0; k < nops && ops[k].offset != to; k++)
				;
			if (k <= i)
				return -1;	/* backwards: no loops */
			i = k - 1;
			break;
		}
		case DW_OP_nop:
			break;
		case DW_OP_stack_value:
			/* only last, and the rule's kind says it */
			break;
		default:
			return -1;
		}
	}
#undef PUSH
#undef POP
	if (!sp)
		return -1;
	*out = st[sp - 1];
	return 0;
}
