/**
 * What one test has learnt of the section 4.3 records it wrote, shared by all of them: the markers (a fresh
 * run-tagged string written with each write, so a view that shows it shows that write), which views echo what was
 * written, and how long each list has been. Bodies are not shown (spec 4.3), so the model never assumes that a server
 * echoes a body: it learns it, per view, from the server itself, and from then on holds the server to it.
 */
import { freshId } from '../fresh-id.ts';

export type ViewKind = 'by id' | 'collection';

export class RecordBook {
  /** marker → the key of the record it was written to. */
  private readonly markerOwners = new Map<string, string>();
  /** `${template} ${view}`: the view has shown a record's latest marker in this test. */
  private readonly echoing = new Set<string>();
  /** A list's path → the most elements it has answered in this test. */
  private readonly longest = new Map<string, number>();

  constructor(readonly runId: string) {}

  /** A fresh marker for a write to the record `key`. */
  mark(key: string): string {
    const marker = freshId('mark', this.runId);
    this.markerOwners.set(marker, key);
    return marker;
  }

  /** The marker turned out to be written to the record `key` (a POST whose record the server named). */
  reassign(marker: string, key: string): void {
    this.markerOwners.set(marker, key);
  }

  ownerOf(marker: string): string | undefined {
    return this.markerOwners.get(marker);
  }

  /** Every marker the text shows, with the record each was written to. */
  markersIn(text: string): { marker: string; owner: string }[] {
    if (!text.includes(this.runId)) return [];
    return [...this.markerOwners].filter(([m]) => text.includes(m)).map(([marker, owner]) => ({ marker, owner }));
  }

  echoes(template: string, view: ViewKind): boolean {
    return this.echoing.has(`${template} ${view}`);
  }

  learnEcho(template: string, view: ViewKind): void {
    this.echoing.add(`${template} ${view}`);
  }

  /** Notes a list's length; answers the longest it has been before this answer. */
  noteLength(listPath: string, length: number): number {
    const before = this.longest.get(listPath) ?? 0;
    if (length > before) this.longest.set(listPath, length);
    return before;
  }
}
