# redis-rb (Debian's ruby-redis) driving MULTI/EXEC on a running tabulad:
#   ruby resp-transaction.rb PORT
# A transaction that commits (both orders added, EXEC's replies in order) and one that is
# refused (an RM of a missing item): it raises, and its first write is not applied.
require "redis"

port = Integer(ARGV.fetch(0))
r = Redis.new(port: port, timeout: 10)
count = -> { r.call("LS", "/orders", "LIMIT", "10000").length }
before = count.call
replies = r.multi do |tx|
  tx.call("ORDER", "margherita")
  tx.call("ORDER", "pepperoni")
end
abort "FAIL: redis-rb EXEC gave #{replies.inspect}" unless replies.length == 2 && replies.all? { |x| x.start_with?("order ") }
puts "ok - redis-rb multi: both writes applied, EXEC's replies in order (#{replies.join(', ')})"
begin
  r.multi do |tx|
    tx.call("ORDER", "margherita")
    tx.call("RM", "/items/999")
  end
  abort "FAIL: redis-rb reported a refused transaction as taken"
rescue Redis::CommandError => e
  abort "FAIL: redis-rb's refusal does not say why: #{e.message}" unless e.message.include?("not applied") && e.message.include?("command 2 of 2")
  puts "ok - redis-rb multi refused whole: #{e.message[0, 70]}"
end
after = count.call
abort "FAIL: #{after} orders after the refused transaction (#{before} before, + 2 expected)" unless after == before + 2
puts "ok - redis-rb: the refused transaction's first write was not applied (#{after} orders)"
