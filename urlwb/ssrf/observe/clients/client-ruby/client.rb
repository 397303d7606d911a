# Ruby's Net::HTTP behind urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py): a hello
# line {"client":"ruby-net-http","version"}; then for each line on stdin (a JSON string: the URL)
# one JSON line: {"ok":true,"status"} or {"ok":false,"error":CLASS,"message"}.
# The common use: Net::HTTP.get_response(URI(url)) (URI() is the RFC 3986 parser), following
# redirects by hand as the usual loop does (Net::HTTP follows none), at most 5; 3 s timeouts,
# no proxy.
require "json"
require "net/http"
require "uri"

$stdout.sync = true
puts JSON.generate({ client: "ruby-net-http", version: "#{RUBY_VERSION} net-http #{Net::HTTP::VERSION}" })

def fetch(url)
  6.times do
    uri = URI(url)
    http = Net::HTTP.new(uri.hostname, uri.port, nil)
    http.use_ssl = uri.scheme == "https"
    http.open_timeout = http.read_timeout = 3
    res = http.start { |h| h.request(Net::HTTP::Get.new(uri)) }
    return res.code.to_i unless res.is_a?(Net::HTTPRedirection) && res["location"]
    url = URI.join(uri, res["location"]).to_s
  end
  raise "too many redirects"
end

$stdin.each_line do |line|
  url = JSON.parse(line)
  begin
    puts JSON.generate({ ok: true, status: fetch(url) })
  rescue Exception => e # every failure is an answer: the class is the observation
    puts JSON.generate({ ok: false, error: e.class.name, message: e.message.to_s.scrub[0, 300] })
  end
end
