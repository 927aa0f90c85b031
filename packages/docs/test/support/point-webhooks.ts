// Points the sandbox's seeded webhooks at a receiver of the test (startReceiver of
// @org/payments-testing): the seed's URL is a host on the internet, which no test may send to.
/**
 * Points every webhook of the sandbox's example partner (the key `sandbox-key`, whose data is the
 * whole seed, and which the samples send) at `url` (through the API, as a reader would).
 */
export async function pointWebhooksAt(sandboxUrl: string, url: string) {
  const headers = { "X-API-Key": "sandbox-key", "Content-Type": "application/json; charset=utf-8" };
  const page = (await fetch(`${sandboxUrl}/webhooks`, { headers }).then((answer) =>
    answer.json(),
  )) as { items: { id: string }[] };
  for (const { id } of page.items) {
    const answer = await fetch(`${sandboxUrl}/webhooks/${id}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ url }),
    });
    if (!answer.ok) throw new Error(`PATCH /webhooks/${id} answered ${answer.status}`);
  }
  return page.items.map((item) => item.id);
}
