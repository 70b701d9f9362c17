// Types of runtime.js (plain JavaScript: it runs before anything that an older Node might fail to load).
export declare const OLDEST_NODE: [number, number];
export declare function supported(version?: string): boolean;
export declare function projectNode(from?: string): string | null;
export declare function runOnSupportedNode(script?: string): Promise<void>;
