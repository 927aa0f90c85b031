export type PackedPackage = { name: string; version: string; tarball: string; files: number };

export declare function publishedPackages(): { dir: string; manifest: Record<string, unknown> }[];
export declare function packPublishedPackages(destination: string): PackedPackage[];
