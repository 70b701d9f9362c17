/** File sizes as the specification shows them: bytes / 1024, rounded, in KB. */
export const sizeInKb = (bytes: number): number => Math.round(bytes / 1024);
