import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';
import { newUid } from './define';

export type SigningKeyRow = Model & { uid: string; kid: string; privateKey: string; publicJwk: string; createdAt: Date; retiredAt: Date | null };

/** RSA keys of the embedded issuer; the private key is stored encrypted (core/secret-box). Not tenant-scoped. */
export function defineSigningKey(sequelize: Sequelize): ModelStatic<SigningKeyRow> {
  return sequelize.define('SigningKey', {
    uid: { type: DataTypes.CHAR(32), primaryKey: true, defaultValue: newUid },
    kid: { type: DataTypes.STRING(64), allowNull: false },
    privateKey: { type: DataTypes.TEXT('long'), allowNull: false },
    publicJwk: { type: DataTypes.TEXT('long'), allowNull: false },
    createdAt: { type: DataTypes.DATE(3), allowNull: false },
    retiredAt: { type: DataTypes.DATE(3), allowNull: true },
  }, { tableName: 'signing_keys', timestamps: false }) as ModelStatic<SigningKeyRow>;
}
