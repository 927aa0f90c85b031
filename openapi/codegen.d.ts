export declare function staleGeneratedFiles(dir: string, files: Record<string, string>): string[];
export declare function emitGenerated(
  dir: string,
  files: Record<string, string>,
  options: { regenerate: string; ci?: string | undefined },
): void;
