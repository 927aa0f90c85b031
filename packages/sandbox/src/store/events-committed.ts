// Who is told that a partner's events committed: the event streams of this process, which then
// read what is new. SQLite's store tells them after its commit; Postgres's when a NOTIFY of any
// process's commit arrives.

/**
 * Called with the partner whose events committed; undefined when any partner's may have (a
 * listening connection was just opened, and commits before it went unheard).
 */
export type EventsListener = (partner: string | undefined) => void;

export class EventsCommitted {
  private readonly listeners = new Set<EventsListener>();

  /** Adds the listener; resolves to its removal. */
  listen(listener: EventsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(partner: string | undefined): void {
    for (const listener of this.listeners) listener(partner);
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }
}
