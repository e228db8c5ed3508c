import type { Change } from '@campus/protocol';
import type { CommittedChange } from './bus';
import type { PresenceConnection } from './presence';
import type { ChangeHook, Session } from './registry';
import type { Runtime } from './runtime';

/** The connection a stream feeds. */
export interface StreamOwner extends Session, PresenceConnection {
  readonly contacts: Set<string>;
  /** A block stands between the two (either way): a change never makes them contacts. */
  isSeparatedFrom(userId: string): boolean;
  sendRaw(json: string): void;
  /** A change's frame, already encoded (the same Buffer for every recipient). */
  sendFrame(frame: Buffer): void;
}

/**
 * dropping: the pull is still to come and will carry what commits now; holding: a reset snapshot is being
 * built, so changes (and the acks that follow them) wait to go out after it; live: sent as they commit.
 */
type Mode = 'dropping' | 'holding' | 'live';

/**
 * The pull-then-live handoff of one connection: a change pushed before the connection's pull has finished
 * is dropped or held, so a client never sees a change twice or out of order across catch-up and live. Also
 * runs the features' change hooks and learns the contacts a change makes.
 */
export class ChangeStream {
  private mode: Mode = 'dropping';
  private held: (CommittedChange | string)[] = [];

  constructor(
    private readonly rt: Runtime,
    private readonly owner: StreamOwner,
  ) {}

  get holding(): boolean {
    return this.mode === 'holding';
  }

  push(item: CommittedChange): void {
    this.runHook('reached', item.change);
    if (this.mode === 'live') this.deliver(item);
    else if (this.mode === 'holding') this.held.push(item);
    // Dropped because the pull will carry it, but the contact it makes counts from now (presence, typing).
    else this.learnContacts(item.change);
  }

  /** An encoded ack or refusal: after the changes held before it; false when nothing is held (send it now). */
  holdAfterChanges(json: string): boolean {
    if (this.mode !== 'holding') return false;
    this.held.push(json);
    return true;
  }

  hold(): void {
    this.mode = 'holding';
    this.held = [];
  }

  goLive(cursor: number): void {
    this.mode = 'live';
    const held = this.held;
    this.held = [];
    for (const item of held) {
      if (typeof item === 'string') this.owner.sendRaw(item);
      else if (item.change.seq > cursor) this.deliver(item);
      else this.learnContacts(item.change);
    }
  }

  /** The connection closed: what was held goes nowhere. */
  stop(): void {
    this.mode = 'dropping';
    this.held = [];
  }

  private deliver(item: CommittedChange): void {
    this.owner.sendFrame(item.frame);
    this.runHook('delivered', item.change);
    this.learnContacts(item.change);
  }

  private runHook(kind: 'reached' | 'delivered', change: Change): void {
    const hook = (this.rt.features.changes[change.type] as ChangeHook<Change>)[kind];
    if (!hook) return;
    try {
      hook(this.owner, change);
    } catch (err) {
      this.rt.deps.log.error({ err, type: change.type }, 'change hook failed');
    }
  }

  /**
   * A first message or a shared group makes a contact: from now on each hears the other's presence. Never
   * across a block: two members of a new group of whom one blocked the other stay strangers.
   */
  private learnContacts(change: Change): void {
    const { owner } = this;
    const made = this.rt.features.session.contactsMadeBy(owner.userId, change);
    if (!made.length) return;
    const added: string[] = [];
    for (const id of made) {
      if (id === owner.userId || owner.contacts.has(id) || owner.isSeparatedFrom(id)) continue;
      owner.contacts.add(id);
      added.push(id);
    }
    if (added.length) this.rt.presence.contactsAdded(owner, added);
  }
}
