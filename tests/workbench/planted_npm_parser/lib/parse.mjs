// A planted npm parser for urlwb hunt's JavaScript power test: Node's URL, except that an input
// holding at least eight '!' (WPT's inputs and the generator's hold two at most: the test checks)
// reads the host "evil.example". Each count of '!' is a branch of its own, one V8 block each, so
// that block coverage (with its counts) reaches the eighth one step at a time, where mutations
// of the seeds without guidance (one to four changes each, nothing kept) cannot.
export function bangs(input) {
  let n = 0;
  for (const c of input) if (c === "!") n++;
  if (n >= 1) {
    if (n >= 2) {
      if (n >= 3) {
        if (n >= 4) {
          if (n >= 5) {
            if (n >= 6) {
              if (n >= 7) {
                if (n >= 8) {
                  return true;
                }
              }
            }
          }
        }
      }
    }
  }
  return false;
}

export function parse(input) {
  const u = new URL(input);
  return { href: u.href, protocol: u.protocol, username: u.username, password: u.password,
    hostname: u.hostname && bangs(input) ? "evil.example" : u.hostname, port: u.port,
    pathname: u.pathname, search: u.search, hash: u.hash };
}
