# Writes an ObjectSpace.dump_all of a synthetic app heap of about TARGET_MB megabytes:
#   ruby --disable-gems make_dump.rb OUT.heap.json TARGET_MB
# Orders with line items (hashes, arrays, strings, structs, floats), a cache of duplicated strings,
# and a leak list, allocated with allocation tracing on so records carry file/line/generation.
require "objspace"
out, target_mb = ARGV[0], Float(ARGV[1] || 53)
Item = Struct.new(:sku, :qty, :price)
Order = Struct.new(:id, :customer, :items, :meta)
ObjectSpace.trace_object_allocations_start
# ~310 bytes of dump per object on average (measured): size the workload from the target.
orders_wanted = (target_mb * 1_000_000 / 310 / 12).to_i
$orders = []
$cache = {}
orders_wanted.times do |i|
  items = Array.new(3) { |k| Item.new("SKU-#{k}", k + 1, 9.99 * (k + 1)) }
  meta = { "source" => "web", "note" => "order note #{i % 500}" }
  $orders << Order.new(i, "customer-#{i % 1000}", items, meta)
  $cache["k#{i % 5000}"] = "duplicated value" + "" if i % 3 == 0
  GC.start if i % 200_000 == 0
end
GC.start
File.open(out, "w") { |f| ObjectSpace.dump_all(output: f) }
STDERR.puts "#{out}: #{File.size(out) / 1_000_000.0} MB, #{$orders.size} orders"
