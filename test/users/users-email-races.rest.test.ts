import { createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * One e-mail address, one user: a primary address (users.email) and a secondary one (emails) are two
 * tables, so real parallel HTTP requests race the check against the write. Each round sends the two
 * writes at once; exactly one wins, the other gets its route's usual answer, and the address ends
 * owned once.
 */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const TAKEN = { message: { email: ['has already been taken'] } };
const ROUNDS = 5;

/** How many rows hold the address, as a primary or a secondary address. */
async function owners(address: string): Promise<number> {
  const row = await queryOne<{ n: number }>(
    t,
    'select (select count(*) from users where lower(email) = lower(?)) + (select count(*) from emails where lower(email) = lower(?)) as n',
    [address, address],
  );
  return Number(row?.n);
}

describe('POST /users/:id/emails racing PUT /users/:id', () => {
  it('gives the address to one user only; the loser gets 400 has already been taken', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const address = `x${round}@x.test`;
      const [a, b] = [await createUser(t), await createUser(t)];
      const [added, updated] = await Promise.all([
        admin().post(`/api/v4/users/${a.id}/emails`).send({ email: address }),
        admin().put(`/api/v4/users/${b.id}`).send({ email: address }),
      ]);
      expect([
        [201, 400],
        [400, 200],
      ]).toContainEqual([added.status, updated.status]);
      expect((added.status === 400 ? added : updated).body).toEqual(TAKEN);
      expect(await owners(address)).toBe(1);
    }
  });
});

describe('POST /user/emails racing POST /users', () => {
  it('gives the address to one user only; the loser gets 400 has already been taken', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const address = `y${round}@x.test`;
      const a = await createUser(t);
      const [added, created] = await Promise.all([
        api(t, a.token).post('/api/v4/user/emails').send({ email: address }),
        admin()
          .post('/api/v4/users')
          .send({ email: address, username: `new${round}`, name: 'New', password: 'secret123' }),
      ]);
      expect([
        [201, 400],
        [400, 201],
      ]).toContainEqual([added.status, created.status]);
      expect((added.status === 400 ? added : created).body).toEqual(TAKEN);
      expect(await owners(address)).toBe(1);
    }
  });
});
