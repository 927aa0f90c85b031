// What the reader enters once for the page: the API key, the sub-partner and, on a static page,
// the sandbox's URL. Every console reads and writes the same values, kept for the browser tab
// (the URL for the browser: it is no secret).

export interface PageSettings {
  apiKey: string;
  subPartnerId: string;
  sandboxUrl: string;
}

type Listener = (settings: PageSettings) => void;

const KEYS = {
  apiKey: ["session", "payments-console.api-key"],
  subPartnerId: ["session", "payments-console.sub-partner-id"],
  sandboxUrl: ["local", "payments-console.sandbox-url"],
} as const;

export class SharedSettings {
  private values: PageSettings;
  private readonly listeners = new Set<Listener>();

  constructor(defaults: PageSettings) {
    this.values = {
      apiKey: stored("apiKey") ?? defaults.apiKey,
      subPartnerId: stored("subPartnerId") ?? defaults.subPartnerId,
      sandboxUrl: stored("sandboxUrl") ?? defaults.sandboxUrl,
    };
  }

  get current(): PageSettings {
    return { ...this.values };
  }

  set(name: keyof PageSettings, value: string) {
    this.values = { ...this.values, [name]: value };
    store(name, value);
    for (const listener of this.listeners) listener(this.current);
  }

  /** Calls `listener` on every change (consoles live as long as the page: no unsubscribing). */
  subscribe(listener: Listener) {
    this.listeners.add(listener);
  }
}

function storage(kind: "session" | "local"): Storage | undefined {
  // Storage may be switched off (a privacy setting); the console then just forgets on reload.
  try {
    return kind === "session" ? sessionStorage : localStorage;
  } catch {
    return undefined;
  }
}

function stored(name: keyof PageSettings): string | undefined {
  const [kind, key] = KEYS[name];
  try {
    return storage(kind)?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(name: keyof PageSettings, value: string) {
  const [kind, key] = KEYS[name];
  try {
    storage(kind)?.setItem(key, value);
  } catch {
    // As above: not kept, still used for this page.
  }
}
