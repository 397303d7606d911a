# frozen_string_literal: true

# Ruby's URI behind the workbench's oracle protocol (docs/oracle-protocol.md, urlwb-oracle/1): one JSON
# request per line on stdin, one JSON answer per line on stdout, in the same order.
#
#   ruby adapter.rb rfc3986   URI::RFC3986_Parser (URI.parse's parser since Ruby 2.2)
#   ruby adapter.rb rfc2396   URI::RFC2396_Parser (the older one, URI::DEFAULT_PARSER before 2.2)
#
# With a base, the parser's own join: parser.join(base, input), which is parse(base).merge(input)
# (what URI.join does with the default parser). Rejection is a URI::Error (InvalidURIError,
# InvalidComponentError, BadURIError), as uri documents; anything else raised is a crash.

require 'json'
require 'uri'

PARSERS = {
  'rfc3986' => URI::RFC3986_Parser,
  'rfc2396' => URI::RFC2396_Parser
}.freeze

# A lone surrogate escape, a surrogate pair, or any other escape (\\ included), left to right.
ESCAPE = /\\u[dD][89abAB]\h{2}\\u[dD][c-fC-F]\h{2}|\\u[dD][89a-fA-F]\h{2}|\\./.freeze

# Quirks, normalized here and nowhere else (listed in oracles.toml):
# - Ruby's json turns a lone surrogate escape into bytes that are not UTF-8; the protocol asks for
#   U+FFFD in its place, before decoding: each lone surrogate escape becomes \ufffd (pairs kept).
def to_scalar_values(line)
  return line unless line.include?('\\u') || line.include?('\\U')

  line.gsub(ESCAPE) { |m| m.length == 6 ? '\\ufffd' : m }
end

# - URI#port reports the scheme's default port (URI::HTTP 80, URI::LDAP 389, ...) when none was
#   written, and for an empty one ("http://a:/"). The parser's own split tells whether a port was
#   written: a port comes from the input when it is absolute or names a port, else from the base
#   (the order of Generic#merge, which also keeps the base's port when the input names only a
#   host). Where none was written, port is null.
def written_port(parser, input, base)
  ref_port = parser.split(input)[3]
  return ref_port if base.nil? || !ref_port.to_s.empty? || parser.parse(input).absolute?

  parser.split(base)[3]
end

# - An opaque URI (mailto:x, javascript:x) has path nil and the rest in #opaque: sent as the path.
# - Components are strings of the input's bytes, some tagged US-ASCII (MailTo's): read as UTF-8,
#   any bytes that are not UTF-8 scrubbed to U+FFFD.
def utf8(str)
  str.dup.force_encoding(Encoding::UTF_8).scrub("\uFFFD")
end

def components(parser, input, base)
  uri = base.nil? ? parser.parse(input) : parser.join(base, input)
  port = written_port(parser, input, base).to_s.empty? ? nil : uri.port
  fields = {
    'scheme' => uri.scheme, 'username' => uri.user, 'password' => uri.password, 'host' => uri.host,
    'port' => port, 'path' => uri.path || uri.opaque, 'query' => uri.query,
    'fragment' => uri.fragment, 'href' => uri.to_s
  }
  fields.transform_values { |v| v.is_a?(String) ? utf8(v) : v }
end

def answer(out)
  $stdout.write(JSON.generate(out, ascii_only: true), "\n")
  $stdout.flush
end

def main(which)
  parser = PARSERS.fetch(which).new
  answer('hello' => 'urlwb-oracle/1', 'name' => "ruby-uri-#{which}",
         'parser' => "URI::#{which.upcase}_Parser (parse; join with a base)", 'language' => 'Ruby',
         'version' => "uri #{URI::VERSION} (Ruby #{RUBY_VERSION})", 'family' => 'other',
         'kind' => 'url', 'base' => true)
  $stdin.each_line do |line|
    req = JSON.parse(to_scalar_values(line))
    id = req['id']
    begin
      answer({ 'id' => id }.merge(components(parser, req['input'], req['base'])))
    rescue URI::Error => e
      answer('id' => id, 'error' => utf8("#{e.class}: #{e.message}"))
    rescue StandardError => e
      answer('id' => id, 'crash' => utf8("#{e.class}: #{e.message}"))
    end
  end
end

main(ARGV.fetch(0, 'rfc3986'))
