// Postgres's part of the event streams: one connection per process that LISTENs on the channel
// every transaction that wrote events notifies as it commits (event-log-rows.ts), opened when the
// first stream asks and kept while any listens. A broken connection is opened again; meanwhile
// the streams' own slow poll carries the events.
import type { Client, Notification } from "pg";
import { EVENTS_CHANNEL } from "./event-log-rows.js";
import { EventsCommitted, type EventsListener } from "./events-committed.js";

/** A lost LISTEN connection is opened again after this long. */
const RECONNECT_MS = 1_000;

export class EventNotifications {
  private readonly committed = new EventsCommitted();
  private readonly connect: () => Client;
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(connect: () => Client) {
    this.connect = connect;
  }

  listen(listener: EventsListener): () => void {
    const remove = this.committed.listen(listener);
    if (this.client === undefined && this.retry === undefined) this.open();
    return () => {
      remove();
      if (!this.committed.listening) this.drop();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.drop();
  }

  private open(): void {
    if (this.closed) return;
    const client = this.connect();
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.committed.listening && !this.closed) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.open();
        }, RECONNECT_MS);
        this.retry.unref();
      }
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message: Notification) => {
      if (message.payload !== undefined) this.committed.tell(message.payload);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${EVENTS_CHANNEL}`))
      .then(() => this.committed.tell(undefined))
      .catch(lost);
  }

  private async drop(): Promise<void> {
    // A connection due to be opened again after one was lost is not wanted either.
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
