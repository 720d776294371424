#!/usr/bin/env ruby
# Builds a large rbkit capture for benchmarking from the real capture of the shared corpus
# (rbkit/real_stock_threaddeath.rbkit: handshake reply + 325 event_collection frames):
# the handshake once, then the 325 frames repeated N times with
#   - message_counter renumbered 0, 1, 2, ... (no gaps, no duplicates),
#   - timestamps shifted by N * (capture span + 1 s) so time keeps moving forward,
#   - object ids shifted by N * 10_000_000 so every repetition creates/destroys its own objects.
# Usage: ruby make_big_capture.rb REPEATS OUT   (20 repeats ~ 113 MB)
require "msgpack"

repeats = Integer(ARGV[0] || 20)
out_path = ARGV[1] || "/tmp/rbkit-big.rbkit"
src = File.expand_path("../../../shared/corpus/heap/rbkit/real_stock_threaddeath.rbkit", __dir__)
src = File.expand_path("../../../../shared/corpus/heap/rbkit/real_stock_threaddeath.rbkit", __dir__) unless File.exist?(src)
messages = []
u = MessagePack::Unpacker.new
u.feed(File.binread(src))
u.each { |m| messages << m }
handshake, *collections = messages
ts = collections.flat_map { |c| [c[1]] + c[2].map { |e| e[1] } }
span_ms = ts.max - ts.min + 1000.0

File.open(out_path, "wb") do |out|
  out.write(MessagePack.pack(handshake))
  counter = 0
  repeats.times do |rep|
    dt = rep * span_ms
    did = rep * 10_000_000
    collections.each do |c|
      events = c[2].map do |e|
        e2 = { 0 => e[0], 1 => e[1] + dt }
        if e[2].is_a?(Hash)
          p = e[2].dup
          p[3] += did if p[3].is_a?(Integer)
          e2[2] = p
        end
        e2
      end
      out.write(MessagePack.pack({ 0 => 7, 1 => c[1] + dt, 9 => counter, 2 => events }))
      counter += 1
    end
  end
end
STDERR.puts "#{out_path}: #{File.size(out_path)} bytes, #{repeats * collections.size} collections"
