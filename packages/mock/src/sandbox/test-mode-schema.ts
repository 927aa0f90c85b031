// The tables of the sandbox's test mode, the same for SQLite and Postgres: the clock's offset,
// the work scheduled on the clock (timed lifecycle steps, webhook delivery attempts) and each
// webhook event's payload (for redelivery). A database made by an earlier release gets them when
// it is opened; every statement may run again.

/**
 * @param serial how the database spells an auto-increment primary key column
 */
export function testModeStatements(serial: string): string[] {
  return [
    "CREATE TABLE IF NOT EXISTS sandbox_clock (id INTEGER PRIMARY KEY, offset_ms BIGINT NOT NULL)",
    "INSERT INTO sandbox_clock (id, offset_ms) VALUES (1, 0) ON CONFLICT (id) DO NOTHING",
    `CREATE TABLE IF NOT EXISTS scheduled_work (
      seq ${serial},
      due_at BIGINT NOT NULL,
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL
    )`,
    // The runner reads the earliest due work; a change cancels its resource's pending steps.
    "CREATE INDEX IF NOT EXISTS scheduled_work_due ON scheduled_work (due_at, seq)",
    "CREATE INDEX IF NOT EXISTS scheduled_work_subject ON scheduled_work (subject, kind)",
    `CREATE TABLE IF NOT EXISTS webhook_events (
      seq ${serial},
      event_id TEXT NOT NULL UNIQUE,
      webhook_id TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      payload TEXT NOT NULL
    )`,
  ];
}
