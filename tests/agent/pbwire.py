# SPDX-License-Identifier: GPL-2.0-or-later
"""Protobuf's wire format, read strictly (as Go's and vtproto's decoders
refuse what is cut short or malformed): for the stand-in backends
(receiver.py) and the pprof reader of the tests (pprof-sum.py)."""


def varint(b, i):
    """The varint at b[i]: (value, the index after it); ValueError when cut short."""
    v = s = 0
    while True:
        if i >= len(b):
            raise ValueError("unexpected EOF")
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i
        if s >= 70:
            raise ValueError("integer overflow")


def fields(b):
    """Each field of message b: (number, wire type, value), a varint's,
    a fixed's as an int, a length-delimited one's as bytes."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if f == 0:
            raise ValueError("illegal tag 0")
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise ValueError("unexpected EOF")
            v = b[i:i + n]
            i += n
        elif wt in (1, 5):
            n = 8 if wt == 1 else 4
            if i + n > len(b):
                raise ValueError("unexpected EOF")
            v = int.from_bytes(b[i:i + n], "little")
            i += n
        else:
            raise ValueError("illegal wire type %d" % wt)
        yield f, wt, v


def ints(wt, v):
    """A repeated integer field: packed (wire type 2) or one value."""
    if wt != 2:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out
