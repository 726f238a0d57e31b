import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { charLength, cutToChars, longerThan, shorterThan } from '../../src/core/validation/char-length';
import { hostnameErrors, PAGES_MSG } from '../../src/modules/pages-domains/pages-domain.validation';

// GitLab's length validations count characters (code points), as PostgreSQL's varchar(n) does; an
// emoji is one character and two UTF-16 units (docs/gitlab-compatibility.md, "Lengths").
const t = useTestApp();
const EMOJI = '\u{1F600}';
/** A letter outside the Basic Multilingual Plane (DESERET CAPITAL LETTER LONG I): group names take letters, not emoji. */
const LETTER = '\u{10400}';
const root = () => api(t, ROOT_TOKEN);

describe('charLength', () => {
  it('counts code points; a lone surrogate is one character', () => {
    expect([
      charLength(''),
      charLength('abc'),
      charLength(EMOJI.repeat(3)),
      charLength(`a${EMOJI}b`),
      charLength('\uD83D'),
      charLength('\uDE00\uD83D'),
      charLength(`\uD83D${EMOJI}`),
    ]).toEqual([0, 3, 3, 3, 1, 2, 2]);
    expect([
      longerThan(EMOJI.repeat(255), 255),
      longerThan(EMOJI.repeat(256), 255),
      shorterThan(EMOJI.repeat(8), 8),
      shorterThan(EMOJI.repeat(7), 8),
    ]).toEqual([false, true, false, true]);
  });

  it('cuts text to N characters without splitting a pair', () => {
    expect([
      cutToChars(`ab${EMOJI}c`, 3),
      cutToChars(`ab${EMOJI}c`, 2),
      cutToChars('abc', 5),
      cutToChars(`${EMOJI}\uD83D`, 2),
    ]).toEqual([`ab${EMOJI}`, 'ab', 'abc', `${EMOJI}\uD83D`]);
  });

  it('a pages domain label of 32 emoji has only the wrong characters, not the wrong length', () => {
    expect(hostnameErrors(`${EMOJI.repeat(32)}.example.com`)).toEqual([PAGES_MSG.characters]);
    expect(hostnameErrors(`${'a'.repeat(64)}.example.com`)).toEqual([PAGES_MSG.labelLength]);
  });
});

describe('lengths over HTTP, counted in characters', () => {
  it('a group: a name of 255 such letters and a description of 255 emoji fit, 256 are too long', async () => {
    const fit = await root()
      .post('/api/v4/groups')
      .send({ name: LETTER.repeat(255), path: 'fit', description: EMOJI.repeat(255) });
    expect([fit.status, fit.body.name, fit.body.description]).toEqual([201, LETTER.repeat(255), EMOJI.repeat(255)]);
    const read = await root().get('/api/v4/groups/fit');
    expect([read.body.name, read.body.description]).toEqual([LETTER.repeat(255), EMOJI.repeat(255)]);
    const over = await root()
      .post('/api/v4/groups')
      .send({ name: LETTER.repeat(256), path: 'over', description: EMOJI.repeat(256) });
    expect([over.status, over.body]).toEqual([
      400,
      {
        message:
          'Failed to save group {:name=>["is too long (maximum is 255 characters)"], :description=>["is too long (maximum is 255 characters)"]}',
      },
    ]);
  });

  it('a password of 8 emoji is long enough, 7 are too short', async () => {
    const user = (username: string, password: string) =>
      root()
        .post('/api/v4/users')
        .send({ username, name: username, email: `${username}@example.com`, password });
    const short = await user('short', EMOJI.repeat(7));
    expect([short.status, short.body]).toEqual([
      400,
      { message: { password: ['is too short (minimum is 8 characters)'] } },
    ]);
    expect((await user('enough', EMOJI.repeat(8))).status).toBe(201);
    const long = await user('long', EMOJI.repeat(129));
    expect([long.status, long.body]).toEqual([
      400,
      { message: { password: ['is too long (maximum is 128 characters)'] } },
    ]);
  });

  it('a broadcast message whose 255th character is an emoji: created, changed and deleted, its audit event cut after the emoji', async () => {
    const message = `${'a'.repeat(254)}${EMOJI}${'b'.repeat(10)}`;
    const created = await root().post('/api/v4/broadcast_messages').send({ message });
    expect([created.status, created.body.message]).toEqual([201, message]);
    expect(
      (
        await root()
          .put(`/api/v4/broadcast_messages/${created.body.id}`)
          .send({ message: `${message}!` })
      ).status,
    ).toBe(200);
    expect((await root().delete(`/api/v4/broadcast_messages/${created.body.id}`)).status).toBe(204);
    const events = (await root().get('/api/v4/audit_events?entity_type=Gitlab::Audit::InstanceScope')).body as {
      details: { target_type: string; target_details: string };
    }[];
    expect(
      events.filter((e) => e.details.target_type === 'BroadcastMessage').map((e) => e.details.target_details),
    ).toEqual(Array(3).fill(`${'a'.repeat(254)}${EMOJI}`));
  });

  it('a project tag and a custom attribute of 255 emoji fit, 256 do not', async () => {
    const p = await root()
      .post('/api/v4/projects')
      .send({ name: 'tags', tag_list: [EMOJI.repeat(255)] });
    expect([p.status, p.body.tag_list]).toEqual([201, [EMOJI.repeat(255)]]);
    const over = await root()
      .put(`/api/v4/projects/${p.body.id}`)
      .send({ tag_list: [EMOJI.repeat(256)] });
    expect([over.status, over.body]).toEqual([
      400,
      { message: { tag_list: ['is too long (maximum is 255 characters per tag)'] } },
    ]);
    const attr = await root()
      .put(`/api/v4/projects/${p.body.id}/custom_attributes/mood`)
      .send({ value: EMOJI.repeat(255) });
    expect([attr.status, attr.body]).toEqual([200, { key: 'mood', value: EMOJI.repeat(255) }]);
    const attrOver = await root()
      .put(`/api/v4/projects/${p.body.id}/custom_attributes/mood`)
      .send({ value: EMOJI.repeat(256) });
    expect([attrOver.status, attrOver.body]).toEqual([
      400,
      { message: { value: ['is too long (maximum is 255 characters)'] } },
    ]);
  });
});
