/**
 * The baseline of `npm run bench`: what reading one stream (or cluster) costs with nothing of ours in the way, and what
 * the measured writes cost done by hand (bench-bare-writes.ts). Express and a pg Pool on the service's database and
 * tables, no auth, no validation, no HAL. DATABASE_URL (PostgreSQL) and PORT.
 */
import express from 'express';
import pg from 'pg';
import { writeRoutes } from './bench-bare-writes';

// The service's Sequelize pool has at most 10 connections; the same here, so neither has more of the database.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/streams/:uid', async (req, res) => {
  const { rows } = await pool.query('SELECT * FROM streams WHERE uid = $1', [req.params.uid]);
  if (rows.length === 0) res.status(404).json({ message: 'not found' });
  else res.json(rows[0]);
});
app.get('/clusters/:uid', async (req, res) => {
  const { rows } = await pool.query('SELECT * FROM clusters WHERE uid = $1', [req.params.uid]);
  if (rows.length === 0) res.status(404).json({ message: 'not found' });
  else res.json(rows[0]);
});
writeRoutes(app, pool);
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
