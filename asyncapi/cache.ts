/**
 * Generated documents by stream config, each with the stamp of the rows it was made from (uid, lock version and
 * modification time of every one): a changed stamp is a miss, so no write path has to remember to invalidate.
 * Least recently used entries go first once the texts exceed the character budget.
 */
export class DocumentCache {
  private readonly entries = new Map<string, { stamp: string; text: string }>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string, stamp: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.stamp !== stamp) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.text;
  }

  set(key: string, stamp: string, text: string): void {
    this.remove(key);
    if (text.length > this.maxChars) return;
    this.entries.set(key, { stamp, text });
    this.chars += text.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.remove(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.chars -= entry.text.length;
    this.entries.delete(key);
  }
}
