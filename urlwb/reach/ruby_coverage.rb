# `ruby ruby_coverage.rb ADAPTER ARGS...`: the adapter run under Ruby's built-in Coverage (lines,
# branches, methods), started before the adapter requires anything; at exit, the files whose path
# holds ENV['URLWB_RUBY_COVERAGE_MATCH'] are written to ENV['URLWB_RUBY_COVERAGE'] as JSON:
# {file: {"lines": [count or null], "methods": [[class, name, first, last, count]],
#         "branches": [[first line, count] per branch target]}}.
require 'coverage'
Coverage.start(lines: true, branches: true, methods: true)
at_exit do
  require 'json'
  match = ENV.fetch('URLWB_RUBY_COVERAGE_MATCH')
  out = {}
  Coverage.result.each do |file, v|
    next unless file.include?(match)
    out[file] = {
      'lines' => v[:lines],
      'methods' => v[:methods].map { |(cls, name, l1, _c1, l2, _c2), n| [cls.to_s, name.to_s, l1, l2, n] },
      'branches' => v[:branches].flat_map { |_, targets| targets.map { |(_t, _id, l1, _c1, _l2, _c2), n| [l1, n] } },
    }
  end
  File.write(ENV.fetch('URLWB_RUBY_COVERAGE'), JSON.dump(out))
end
$0 = ARGV.shift
load $0
