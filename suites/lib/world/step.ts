/**
 * What happened just before the world was compared with its model: a write (naming the records its path names), a
 * read, or only time (the audit). A record that no longer matches the model is judged by the rule of what happened:
 * the write's own rule for the records it names, record isolation (or the neighbour rule of its resource group) for
 * every other record, safe reads after a read, durable state after time alone (docs/verdicts.md, "Who owns a
 * divergence").
 */
import { StepReads } from './step-reads.ts';

export type StepKind = 'reading' | 'write' | 'read' | 'audit';

export class Step {
  /** Views read once for every record compared after this step. */
  readonly reads = new StepReads();

  private constructor(
    readonly kind: StepKind,
    /** How messages name it, e.g. `PUT /orders/x` or `DELETE of offer x`. */
    readonly label: string,
    /** The keys of the records the write names: its own, and the record an action's path names. */
    readonly names: ReadonlySet<string>,
  ) {}

  /** The first comparison, before the check writes anything. */
  static reading(label = 'reading'): Step {
    return new Step('reading', label, new Set());
  }

  static write(label: string, names: Iterable<string> = []): Step {
    return new Step('write', label, new Set(names));
  }

  static read(label: string): Step {
    return new Step('read', label, new Set());
  }

  /** Time alone, at least one visibility deadline after the last write. */
  static audit(label: string): Step {
    return new Step('audit', label, new Set());
  }

  /** A step given as text by a check that names no records (a billing write, an offer's cancellation). */
  static of(step: Step | string): Step {
    if (step instanceof Step) return step;
    return step === 'reading' ? Step.reading() : Step.write(step);
  }

  namesRecord(key: string): boolean {
    return this.names.has(key);
  }

  toString(): string {
    return this.label;
  }
}
