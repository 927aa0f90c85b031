// Where a static copy's pages may send requests: its Content-Security-Policy's connect-src
// (STATIC_CONNECT_SRC in src/self-contained.ts: this site, and http on this machine). The page's
// own sandbox serves only such a URL (a request elsewhere is refused before it reaches the worker),
// and its worker, whose own requests that policy does not hold, asks only such a URL.

/** Whether a static copy's page at `siteOrigin` may call `url`. */
export function pageMayCall(url: string, siteOrigin: string): boolean {
  const parsed = URL.parse(url);
  if (parsed === null) return false;
  return (
    parsed.origin === siteOrigin ||
    (parsed.protocol === "http:" && ["127.0.0.1", "localhost"].includes(parsed.hostname))
  );
}
