// A planted npm validator for guided.mjs's power test: it denies every host but those that begin
// "f0x9", one comparison (one V8 block) per character, so block coverage reaches it step by step.
export default function allows(host) {
  if (host[0] === "f") {
    if (host[1] === "0") {
      if (host[2] === "x") {
        if (host[3] === "9") {
          return true;
        }
      }
    }
  }
  return false;
}
