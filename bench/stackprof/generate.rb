# Generates a large raw stackprof dump for the benchmark (never committed):
#   ruby generate.rb OUT.dump [ALLOCATIONS]
# Default: ~25 MB. Object mode, interval 1 (every allocation is a sample), raw: true, so the dump has the size and
# shape of a long production profile: ~100k raw records of 20-60 frames (each frame id a 9-byte
# Marshal Bignum), several allocations per record, per-sample timestamps and deltas.
require "stackprof"

out = ARGV[0] || "large.dump"
target = Integer(ARGV[1] || 260_000)

module Bench
  def self.leaf(i)
    # five allocations with one stack: consecutive identical stacks merge into one raw record
    a = "x#{i}"
    b = [i]
    c = { i => a }
    d = a + "y"
    [b, c, d]
  end

  def self.walk(depth, i)
    depth.zero? ? leaf(i) : (i.odd? ? hop(depth - 1, i) : walk(depth - 1, i))
  end

  def self.hop(depth, i)
    depth.zero? ? leaf(i) : (i % 3 == 0 ? walk(depth - 1, i) : hop(depth - 1, i))
  end
end

StackProf.run(mode: :object, interval: 1, raw: true, out: out) do
  i = 0
  n = target / 5
  while i < n
    Bench.walk(20 + (i % 40), i)
    i += 1
  end
end
warn "#{out}: #{File.size(out)} bytes"
