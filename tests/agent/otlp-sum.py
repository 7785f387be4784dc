#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Decode OTLP profiles (an ExportProfilesServiceRequest, or the same
bytes as ProfilesData) with Google's protobuf library, from descriptors
built here with opentelemetry-proto v1.11.0's published field numbers
(opentelemetry/proto/profiles/v1development/profiles.proto,
collector/profiles/v1development/profiles_service.proto,
common/v1/common.proto, resource/v1/resource.proto).

It checks what the proto says MUST hold (each table's index 0 its zero
value, every index in range, a key once per attribute list) and what it
says SHOULD NOT be (an entry nothing refers to, an entry twice), and prints
one line per field as KEY VALUE, for the tests to read:

  resource KEY=VALUE          (each Resource attribute)
  scope NAME VERSION
  profile TYPE/UNIT period_type=TYPE/UNIT period=N samples=N total=N time=NS duration=NS id=HEX
  attrs K=V,K=V VALUE         (per sample of the last profile: its attributes and value)
  leaf NAME VALUE             (per leaf function of the last profile, summed)
  frame_types T,T             (the location attributes seen)
  build_ids N                 (mappings that carry process.executable.build_id.gnu)

Usage: otlp-sum.py FILE   (gzipped or not)
"""
import gzip
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto
T = {"int32": F.TYPE_INT32, "int64": F.TYPE_INT64, "uint32": F.TYPE_UINT32,
     "uint64": F.TYPE_UINT64, "fixed64": F.TYPE_FIXED64, "string": F.TYPE_STRING,
     "bytes": F.TYPE_BYTES, "bool": F.TYPE_BOOL, "double": F.TYPE_DOUBLE}

# message: [(field name, number, type or .Message, repeated, oneof index)]
MSGS = {
    "AnyValue": [("string_value", 1, "string", 0, 0), ("bool_value", 2, "bool", 0, 0),
                 ("int_value", 3, "int64", 0, 0), ("double_value", 4, "double", 0, 0),
                 ("array_value", 5, ".p.ArrayValue", 0, 0),
                 ("kvlist_value", 6, ".p.KeyValueList", 0, 0),
                 ("bytes_value", 7, "bytes", 0, 0),
                 ("string_value_strindex", 8, "int32", 0, 0)],
    "ArrayValue": [("values", 1, ".p.AnyValue", 1, None)],
    "KeyValueList": [("values", 1, ".p.KeyValue", 1, None)],
    "KeyValue": [("key", 1, "string", 0, None), ("value", 2, ".p.AnyValue", 0, None),
                 ("key_strindex", 3, "int32", 0, None)],
    "InstrumentationScope": [("name", 1, "string", 0, None), ("version", 2, "string", 0, None),
                             ("attributes", 3, ".p.KeyValue", 1, None),
                             ("dropped_attributes_count", 4, "uint32", 0, None)],
    "Resource": [("attributes", 1, ".p.KeyValue", 1, None),
                 ("dropped_attributes_count", 2, "uint32", 0, None)],
    "ProfilesDictionary": [("mapping_table", 1, ".p.Mapping", 1, None),
                           ("location_table", 2, ".p.Location", 1, None),
                           ("function_table", 3, ".p.Function", 1, None),
                           ("link_table", 4, ".p.Link", 1, None),
                           ("string_table", 5, "string", 1, None),
                           ("attribute_table", 6, ".p.KeyValueAndUnit", 1, None),
                           ("stack_table", 7, ".p.Stack", 1, None)],
    "Request": [("resource_profiles", 1, ".p.ResourceProfiles", 1, None),
                ("dictionary", 2, ".p.ProfilesDictionary", 0, None)],
    "ResourceProfiles": [("resource", 1, ".p.Resource", 0, None),
                         ("scope_profiles", 2, ".p.ScopeProfiles", 1, None),
                         ("schema_url", 3, "string", 0, None)],
    "ScopeProfiles": [("scope", 1, ".p.InstrumentationScope", 0, None),
                      ("profiles", 2, ".p.Profile", 1, None), ("schema_url", 3, "string", 0, None)],
    "Profile": [("sample_type", 1, ".p.ValueType", 0, None), ("samples", 2, ".p.Sample", 1, None),
                ("time_unix_nano", 3, "fixed64", 0, None), ("duration_nano", 4, "uint64", 0, None),
                ("period_type", 5, ".p.ValueType", 0, None), ("period", 6, "int64", 0, None),
                ("profile_id", 7, "bytes", 0, None),
                ("dropped_attributes_count", 8, "uint32", 0, None),
                ("original_payload_format", 9, "string", 0, None),
                ("original_payload", 10, "bytes", 0, None),
                ("attribute_indices", 11, "int32", 1, None)],
    "Link": [("trace_id", 1, "bytes", 0, None), ("span_id", 2, "bytes", 0, None)],
    "ValueType": [("type_strindex", 1, "int32", 0, None), ("unit_strindex", 2, "int32", 0, None)],
    "Sample": [("stack_index", 1, "int32", 0, None), ("attribute_indices", 2, "int32", 1, None),
               ("link_index", 3, "int32", 0, None), ("values", 4, "int64", 1, None),
               ("timestamps_unix_nano", 5, "fixed64", 1, None)],
    "Mapping": [("memory_start", 1, "uint64", 0, None), ("memory_limit", 2, "uint64", 0, None),
                ("file_offset", 3, "uint64", 0, None), ("filename_strindex", 4, "int32", 0, None),
                ("attribute_indices", 5, "int32", 1, None)],
    "Stack": [("location_indices", 1, "int32", 1, None)],
    "Location": [("mapping_index", 1, "int32", 0, None), ("address", 2, "uint64", 0, None),
                 ("lines", 3, ".p.Line", 1, None), ("attribute_indices", 4, "int32", 1, None)],
    "Line": [("function_index", 1, "int32", 0, None), ("line", 2, "int64", 0, None),
             ("column", 3, "int64", 0, None)],
    "Function": [("name_strindex", 1, "int32", 0, None),
                 ("system_name_strindex", 2, "int32", 0, None),
                 ("filename_strindex", 3, "int32", 0, None), ("start_line", 4, "int64", 0, None)],
    "KeyValueAndUnit": [("key_strindex", 1, "int32", 0, None), ("value", 2, ".p.AnyValue", 0, None),
                        ("unit_strindex", 3, "int32", 0, None)],
}


def request_class():
    fd = descriptor_pb2.FileDescriptorProto(name="otlp_profiles_v1_11.proto", package="p",
                                            syntax="proto3")
    for name, fields in MSGS.items():
        m = fd.message_type.add(name=name)
        if any(f[4] is not None for f in fields):
            m.oneof_decl.add(name="value")
        for fname, num, typ, rep, oneof in fields:
            f = m.field.add(name=fname, number=num,
                            label=F.LABEL_REPEATED if rep else F.LABEL_OPTIONAL)
            if typ.startswith("."):
                f.type, f.type_name = F.TYPE_MESSAGE, typ
            else:
                f.type = T[typ]
            if oneof is not None:
                f.oneof_index = oneof
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    desc = pool.FindMessageTypeByName("p.Request")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(desc)
    return message_factory.MessageFactory(pool).GetPrototype(desc)


def fail(msg):
    print("otlp-sum: " + msg, file=sys.stderr)
    sys.exit(1)


def any_str(v):
    k = v.WhichOneof("value")
    return str(getattr(v, k)) if k else ""


def main():
    raw = open(sys.argv[1], "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    req = request_class()()
    req.ParseFromString(raw)
    d = req.dictionary
    st = d.string_table
    # index 0 of every table: present and the zero value
    if not st or st[0] != "":
        fail("string_table[0] is not \"\"")
    for tname in ("mapping_table", "location_table", "function_table", "attribute_table",
                  "stack_table", "link_table"):
        t = getattr(d, tname)
        if not len(t):
            fail(tname + "[0] is missing")
        z = t[0]
        if tname == "link_table":
            if any(z.trace_id) or any(z.span_id):
                fail("link_table[0] is not zero")
        elif z.ByteSize():
            fail(tname + "[0] is not the zero value")

    def s(i):
        if not 0 <= i < len(st):
            fail("string index %d out of range" % i)
        return st[i]

    def attr(i):
        if not 0 < i < len(d.attribute_table):
            fail("attribute index %d out of range" % i)
        a = d.attribute_table[i]
        return s(a.key_strindex), any_str(a.value)

    for m in d.mapping_table[1:]:
        s(m.filename_strindex)
        if m.memory_limit and m.memory_limit < m.memory_start:
            fail("a mapping ends before it starts")
    frame_types = set()
    for loc in d.location_table[1:]:
        if not 0 <= loc.mapping_index < len(d.mapping_table):
            fail("mapping index out of range")
        m = d.mapping_table[loc.mapping_index]
        if loc.mapping_index and not loc.address:
            # no address (prof agent's kernel frames): a function, then
            if not loc.lines:
                fail("a location with neither an address nor a function")
            if m.memory_start >= 0xffff800000000000 or m.memory_limit >= 0xffff800000000000:
                fail("a mapping [0x%x, 0x%x) says where the kernel is" % (m.memory_start, m.memory_limit))
        elif loc.mapping_index and not m.memory_start <= loc.address < m.memory_limit:
            fail("a location at 0x%x lies outside its mapping [0x%x, 0x%x)"
                 % (loc.address, m.memory_start, m.memory_limit))
        for ln in loc.lines:
            if not 0 < ln.function_index < len(d.function_table):
                fail("function index out of range")
        for i in loc.attribute_indices:
            k, v = attr(i)
            if k == "profile.frame.type":
                frame_types.add(v)
    for fn in d.function_table[1:]:
        s(fn.name_strindex), s(fn.system_name_strindex), s(fn.filename_strindex)
    for stck in d.stack_table[1:]:
        for i in stck.location_indices:
            if not 0 < i < len(d.location_table):
                fail("location index %d out of range" % i)
    # nothing that nothing refers to, nothing twice: what the proto says
    # SHOULD NOT be (each table's comment in profiles.proto)
    refs = {t: set() for t in ("mapping_table", "location_table", "function_table",
                               "attribute_table", "stack_table", "string_table")}
    for m in d.mapping_table[1:]:
        refs["string_table"].add(m.filename_strindex)
        refs["attribute_table"].update(m.attribute_indices)
    for loc in d.location_table[1:]:
        refs["mapping_table"].add(loc.mapping_index)
        refs["attribute_table"].update(loc.attribute_indices)
        refs["function_table"].update(ln.function_index for ln in loc.lines)
    for fn in d.function_table[1:]:
        refs["string_table"].update((fn.name_strindex, fn.system_name_strindex, fn.filename_strindex))
    for a in d.attribute_table[1:]:
        refs["string_table"].update((a.key_strindex, a.unit_strindex))
        if a.value.WhichOneof("value") == "string_value_strindex":
            refs["string_table"].add(a.value.string_value_strindex)
    for stck in d.stack_table[1:]:
        refs["location_table"].update(stck.location_indices)
    for rp in req.resource_profiles:
        for sp in rp.scope_profiles:
            for p in sp.profiles:
                for vt in (p.sample_type, p.period_type):
                    refs["string_table"].update((vt.type_strindex, vt.unit_strindex))
                refs["attribute_table"].update(p.attribute_indices)
                for smp in p.samples:
                    refs["stack_table"].add(smp.stack_index)
                    refs["attribute_table"].update(smp.attribute_indices)
    for tname, used in refs.items():
        t = getattr(d, tname)
        orphans = [i for i in range(1, len(t)) if i not in used]
        if orphans:
            fail("%s: %d of %d entries are referred to by nothing (the first: %d)"
                 % (tname, len(orphans), len(t) - 1, orphans[0]))
        seen = {}
        for i in range(1, len(t)):
            k = t[i] if tname == "string_table" else t[i].SerializeToString(deterministic=True)
            if k in seen:
                fail("%s: entries %d and %d are the same" % (tname, seen[k], i))
            seen[k] = i

    builds = 0
    for m in d.mapping_table[1:]:
        builds += any(attr(i)[0] == "process.executable.build_id.gnu" for i in m.attribute_indices)

    for rp in req.resource_profiles:
        for kv in rp.resource.attributes:
            print("resource %s=%s" % (kv.key, any_str(kv.value)))
        for sp in rp.scope_profiles:
            print("scope %s %s" % (sp.scope.name or "-", sp.scope.version or "-"))
            for p in sp.profiles:
                total = 0
                leaves = {}
                lines = []
                for smp in p.samples:
                    if not 0 < smp.stack_index < len(d.stack_table):
                        fail("stack index %d out of range" % smp.stack_index)
                    if len(smp.values) != 1:
                        fail("a sample with %d values" % len(smp.values))
                    v = smp.values[0]
                    total += v
                    kvs = [attr(i) for i in smp.attribute_indices]
                    if len({k for k, _ in kvs}) != len(kvs):
                        fail("a sample repeats an attribute key")
                    lines.append("attrs %s %d" % (",".join("%s=%s" % kv for kv in sorted(kvs)) or "-", v))
                    locs = d.stack_table[smp.stack_index].location_indices
                    name = "-"
                    if locs:
                        loc = d.location_table[locs[0]]
                        if loc.lines:
                            name = s(d.function_table[loc.lines[0].function_index].name_strindex)
                    leaves[name] = leaves.get(name, 0) + v
                pt = p.period_type
                print("profile %s/%s period_type=%s/%s period=%d samples=%d total=%d time=%d "
                      "duration=%d id=%s" % (s(p.sample_type.type_strindex),
                                             s(p.sample_type.unit_strindex),
                                             s(pt.type_strindex), s(pt.unit_strindex), p.period,
                                             len(p.samples), total, p.time_unix_nano,
                                             p.duration_nano, p.profile_id.hex() or "-"))
    for ln in lines:
        print(ln)
    for name, v in sorted(leaves.items(), key=lambda x: -x[1]):
        print("leaf %s %d" % (name, v))
    print("frame_types %s" % (",".join(sorted(frame_types)) or "-"))
    print("build_ids %d" % builds)


main()
