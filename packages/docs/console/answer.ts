// Reads an answer for display: status, headers, body (pretty JSON where it is JSON) and, when the
// body is a problem in the sandbox's format, each problem's location, field and rule.

export interface Problem {
  location: string;
  field: string;
  rule: string;
  message: string;
}

export interface ReadAnswer {
  status: number;
  statusText: string;
  headers: [name: string, value: string][];
  /** The body as shown: indented JSON, or the text as it came. */
  body: string;
  /** A problem body's `title` and `detail`, when it has them. */
  title?: string;
  detail?: string;
  problems: Problem[];
  /** What the console did with the body, when it did not read it to its end (a stream). */
  note?: string;
}

/** How long a console reads a stream that stays open (Server-Sent Events) before it closes it. */
const STREAM_MS = 3_000;

export async function readAnswer(
  response: Response,
  { streamMs = STREAM_MS }: { streamMs?: number } = {},
): Promise<ReadAnswer> {
  if (/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) {
    return {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      body: await readFor(response, streamMs),
      problems: [],
      note: `The stream stays open until its client closes it: this is what it sent in its first ${streamMs / 1000} s, after which the console closed it (payments-mock listen reads it for as long as it runs).`,
    };
  }
  const text = await response.text();
  const json = parseJson(text);
  const headers = [...response.headers.entries()];
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    body: json === undefined ? text : JSON.stringify(json.value, null, 2),
    ...problemOf(json?.value),
  };
}

/** The text `response` sends within `ms`; then the stream is closed (cancelled). */
async function readFor(response: Response, ms: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const decoder = new TextDecoder();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"over">((resolve) => {
    timer = setTimeout(() => resolve("over"), ms);
  });
  try {
    for (;;) {
      const part = await Promise.race([reader.read(), deadline]);
      if (part === "over" || part.done) break;
      text += decoder.decode(part.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

function parseJson(text: string): { value: unknown } | undefined {
  if (text.trim() === "") return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The problems of a body in the sandbox's error format (`errors: [{ location, field, rule,
 * message }]`). The API leaves its error format open: any other body is shown as it is.
 */
export function problemOf(body: unknown): Pick<ReadAnswer, "title" | "detail" | "problems"> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { problems: [] };
  const { title, detail, errors } = body as Record<string, unknown>;
  const problems = Array.isArray(errors)
    ? errors
        .filter(
          (item): item is Record<string, unknown> => item !== null && typeof item === "object",
        )
        .map((item) => ({
          location: String(item.location ?? ""),
          field: String(item.field ?? ""),
          rule: String(item.rule ?? ""),
          message: String(item.message ?? ""),
        }))
    : [];
  return {
    ...(typeof title === "string" && { title }),
    ...(typeof detail === "string" && { detail }),
    problems,
  };
}
