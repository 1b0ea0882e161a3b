import { describe, expect, it } from 'vitest';
import { domainEvent } from './domain-event';

describe('domainEvent', () => {
  it('runs the subscribers in order, once each, a name subscribing again replacing its listener', async () => {
    const seen: string[] = [];
    const event = domainEvent<[string]>('Test event', { required: false });
    event.subscribe('a', async (x) => void seen.push(`a:${x}`));
    event.subscribe('b', async (x) => void seen.push(`b:${x}`));
    event.subscribe('a', async (x) => void seen.push(`a2:${x}`));
    await event.publish('1');
    expect(seen).toEqual(['a2:1', 'b:1']);
  });

  it('a required event with no subscriber refuses to publish; a listener that throws stops the rest', async () => {
    const required = domainEvent<[]>('Show cancellation', { required: true });
    await expect(required.publish()).rejects.toThrow('Show cancellation has no subscribers');
    const seen: string[] = [];
    required.subscribe('boom', async () => {
      throw new Error('refused');
    });
    required.subscribe('after', async () => void seen.push('after'));
    await expect(required.publish()).rejects.toThrow('refused');
    expect(seen).toEqual([]);
  });
});
