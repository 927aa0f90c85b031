// A turn of the event loop, for long work that lets what arrived meanwhile (requests, answers of
// deliveries) go first.

/** The next turn of the event loop: setImmediate in Node, a timer in a browser page (none there). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
