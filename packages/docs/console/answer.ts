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
}

export async function readAnswer(response: Response): Promise<ReadAnswer> {
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
