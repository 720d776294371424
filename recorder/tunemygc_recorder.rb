# frozen_string_literal: true
#
# tunemygc_recorder.rb — a one-file, dependency-free recorder of TuneMyGC payloads for gcscope.
#
# The TuneMyGC service is gone, so instead of posting samples this writes the same JSON payload to a
# file when the process exits; drop that file on gcscope (page or `gcscope analyze FILE`).
#
#   require_relative "tunemygc_recorder"       # or: ruby -r ./tunemygc_recorder.rb app.rb
#   TuneMyGCRecorder.booted!                   # once the app has booted (takes the BOOTED sample)
#   TuneMyGCRecorder.unit(controller: "Users", action: "show") { handle_request }   # per unit of work
#   # or TuneMyGCRecorder.processing_started / TuneMyGCRecorder.processing_ended(meta)
#
# Environment:
#   RUBY_GC_TUNE_OUTPUT   output path (default ./tunemygc-<pid>.json); "%p" is replaced by the pid; a
#                         folder (an existing one, or a path ending in "/") gets tunemygc-<pid>.json.
#                         A forked child writes its own file (pid appended when there is no %p), so a
#                         forking server's run (master and workers) is one folder to drop on gcscope.
#   RUBY_GC_MAX_SAMPLES   sample cap (default 2000, like the agent); TERMINATED is always kept.
#   RUBY_GC_TUNE_SENTINEL set to 0 to turn off the GC sentinel described below.
#
# Payload: the layout of agents 1.0.54 .. 1.0.71 — a 12-element header (spy id at [8]) and samples
#   [monotonic_ts, peak_rss, rss, EVENT, GC.stat values, GC.latest_gc_info, meta, thread_id|nil]
# with nil as the thread id on the main thread and CLOCK_MONOTONIC seconds (as agent 1.0.70+).
# On Ruby 3.4+ the BOOTED meta carries GC.config as "gc_config" (the GC implementation and
# rgengc_allow_full_mark), an extension like stat_heap.
# On Ruby 3.3+ the BOOTED, PROCESSING_ENDED and TERMINATED metas carry GC.stat_heap as "stat_heap"
# (an extension: the protocol allows any Hash there) so heaps can be sized one by one.
#
# What differs from the real agent (it had a C extension on RUBY_INTERNAL_EVENT_GC_START/END_SWEEP):
# plain Ruby cannot run code at GC start or end. This recorder
#   * never emits GC_CYCLE_STARTED (GC reasons come from GC.latest_gc_info and counter deltas);
#   * emits GC_CYCLE_ENDED from a finalizer sentinel: an object whose finalizer runs after the GC that
#     swept it and re-arms a new sentinel. The sample is taken when Ruby runs finalizers (shortly after
#     the sweep, at a safe point), so its timestamp is late by up to one Ruby operation and several GCs
#     in a row can collapse into one sample; GC.stat `count` tells how many ran;
#   * samples GC.stat exactly at every unit-of-work boundary, so per-unit GC counts are exact.

require "json"

module TuneMyGCRecorder
  PROTOCOL_AGENT_VERSION = "1.0.71" # the payload layout it follows
  SPY = "manual"
  AGENT_VARS = %w[RUBY_GC_TOKEN RUBY_GC_TUNE RUBY_GC_TUNE_HOST RUBY_GC_TUNE_VERBOSE RUBY_GC_TUNE_DEBUG
                  RUBY_GC_SPY RUBY_GC_MAX_SAMPLES RUBY_GC_SYNC_ALWAYS RUBY_GC_SYNC_NEVER RUBY_GC_TUNE_OUTPUT
                  RUBY_GC_TUNE_SENTINEL].freeze

  @samples = []
  @pid = Process.pid
  @max_samples = Integer(ENV.fetch("RUBY_GC_MAX_SAMPLES", "2000")) rescue 2000
  @sentinel = ENV.fetch("RUBY_GC_TUNE_SENTINEL", "1") != "0"
  @stat_keys = GC.stat.keys
  @open = false
  @written = false

  class << self
    attr_reader :samples

    def booted!(meta = nil)
      # The agent forces a full, immediately swept GC before BOOTED so the live counts are exact.
      GC.start(full_mark: true, immediate_sweep: true)
      meta = (meta || {}).merge("gc_config" => GC.config.transform_keys(&:to_s)) if GC.respond_to?(:config)
      snapshot("BOOTED", boot_meta(meta))
      arm_sentinel if @sentinel
    end

    def processing_started(meta = nil)
      snapshot("PROCESSING_STARTED", meta)
    end

    def processing_ended(meta = nil)
      snapshot("PROCESSING_ENDED", with_stat_heap(meta))
    end

    def unit(meta = nil)
      processing_started
      yield
    ensure
      processing_ended(meta)
    end

    def terminated!
      return if @written
      snapshot("TERMINATED", boot_meta(nil), force: true)
      write
    end

    def output_path
      path = ENV.fetch("RUBY_GC_TUNE_OUTPUT", "tunemygc-%p.json")
      path = File.join(path, "tunemygc-%p.json") if path.end_with?("/") || File.directory?(path)
      return path.gsub("%p", Process.pid.to_s) if path.include?("%p")
      Process.pid == @first_pid ? path : "#{path}.#{Process.pid}"
    end

    def header
      env = ENV.to_h.select { |k, _| k.start_with?("RUBY_GC_") }
      [ENV["RUBY_GC_TOKEN"], RUBY_VERSION, rails_version, env, PROTOCOL_AGENT_VERSION, GC::OPTS,
       GC::INTERNAL_CONSTANTS, @stat_keys.map(&:to_s), SPY, hostname, Process.ppid, Process.pid]
    end

    def write
      payload = [header] + @samples
      File.write(output_path, JSON.generate(payload))
      @written = true
    end

    # Internal: one sample. Called from finalizers too, so it allocates little and never raises.
    def snapshot(event, meta, force: false)
      forked_check
      return if !force && @samples.size >= @max_samples
      stat = GC.stat
      info = GC.latest_gc_info
      peak, rss = rss_pair
      thread = Thread.current.equal?(Thread.main) ? nil : Thread.current.object_id
      @samples << [Process.clock_gettime(Process::CLOCK_MONOTONIC), peak, rss, event,
                   @stat_keys.map { |k| stat[k] || 0 }, info, meta, thread]
    rescue StandardError
      nil
    end

    def arm_sentinel
      ObjectSpace.define_finalizer(Object.new, SENTINEL_FINALIZER)
    end

    def sentinel_fired
      return if @written || !@sentinel
      snapshot("GC_CYCLE_ENDED", nil)
      arm_sentinel
    end

    # Called in a forked child (Process._fork hook on Ruby 3.1+, else at its first sample).
    def forked!
      forked_check
    end

    private

    def forked_check
      return if Process.pid == @pid
      # A forked child (Puma/Unicorn worker) starts its own payload: the parent's samples describe
      # another process, except BOOTED — the child is a copy of the booted parent, and its GC counters
      # continue from the parent's.
      @pid = Process.pid
      @samples = @samples.select { |s| s[3] == "BOOTED" }
      @written = false
    end

    def boot_meta(meta)
      counts = ObjectSpace.count_objects.transform_keys(&:to_s)
      counts.merge!(meta.transform_keys(&:to_s)) if meta.is_a?(Hash)
      with_stat_heap(counts)
    end

    def with_stat_heap(meta)
      return meta unless GC.respond_to?(:stat_heap)
      heaps = GC.stat_heap.to_h { |i, h| [i.to_s, h.transform_keys(&:to_s)] }
      (meta || {}).merge("stat_heap" => heaps)
    end

    def rails_version
      defined?(::Rails) && ::Rails.respond_to?(:version) ? ::Rails.version.to_s : "0.0"
    end

    def hostname
      require "socket"
      Socket.gethostname
    rescue StandardError, LoadError
      ENV.fetch("HOSTNAME", "localhost")
    end

    # [peak RSS, current RSS] in bytes from /proc (0 when unknown, as the protocol allows).
    def rss_pair
      status = File.read("/proc/self/status")
      hwm = status[/^VmHWM:\s+(\d+)/, 1].to_i * 1024
      rss = status[/^VmRSS:\s+(\d+)/, 1].to_i * 1024
      [hwm, rss]
    rescue StandardError
      [0, 0]
    end
  end

  @first_pid = Process.pid
  SENTINEL_FINALIZER = proc { TuneMyGCRecorder.sentinel_fired }

  # Forking servers (Puma cluster, Unicorn, a plain fork loop): the child starts its own payload at
  # once, before any of its samples, rather than at its first sample.
  module ForkHook
    def _fork
      pid = super
      TuneMyGCRecorder.forked! if pid.zero?
      pid
    end
  end
  Process.singleton_class.prepend(ForkHook) if Process.respond_to?(:_fork)
end

at_exit { TuneMyGCRecorder.terminated! }
