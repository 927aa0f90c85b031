/** The generated files, by name, for the given spec document. */
export function render(doc: unknown): Record<string, string>;
/** `createDirectIdentification` in tag `Identifications` → `createDirect`. */
export function methodName(operationId: string, tag: string): string;
/** `Autoramp transactions` → `autorampTransactions`. */
export function resourceName(tag: string): string;
/** Absolute path of `src/generated/`. */
export const generatedDir: string;
