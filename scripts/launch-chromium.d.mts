export declare const chromiumPath: string;

/** The part of playwright-core's `BrowserType` this needs, so that the caller's copy is used. */
type ChromiumType<Context> = {
  launchPersistentContext(userDataDir: string, options: object): Promise<Context>;
};

export declare function launchChromium<Context extends { close(): Promise<void> }>(
  chromium: ChromiumType<Context>,
  options?: object,
): Promise<{ context: Context; close(): Promise<void> }>;
