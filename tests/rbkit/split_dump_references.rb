# Independent counts for tests/rbkit/test_rbkit_corpus.cpp ("snapshots also go through the shared heap model"):
# decodes a capture with the msgpack gem (Debian ruby-msgpack 1.4.2) and counts the object_space_dump
# objects, their references, references to ids not in the snapshot, and objects no object references.
#   ruby tests/rbkit/split_dump_references.rb ../shared/corpus/heap/rbkit/legacy_rbkit_client_fixtures/split_dump.rbkit
#   => {:objects=>58189, :distinct=>58189, :references=>193804, :out_of_snapshot=>8783, :never_referenced=>34}
require "msgpack"
data = File.binread(ARGV[0])
u = MessagePack::Unpacker.new
u.feed(data)
objs = []
walk = lambda do |ev|
  if ev[0] == 7 then ev[2].each { |e| walk.(e) }
  elsif ev[0] == 5 then objs.concat(ev[2])
  end
end
u.each { |m| walk.(m) }
ids = {}
objs.each { |o| ids[o[3]] = true }
refd = {}
refs = 0; out = 0
objs.each { |o| (o[5] || []).each { |r| refs += 1; if ids[r] then refd[r] = true else out += 1 end } }
never = ids.keys.count { |i| !refd[i] }
puts({objects: objs.size, distinct: ids.size, references: refs, out_of_snapshot: out, never_referenced: never}.inspect)
