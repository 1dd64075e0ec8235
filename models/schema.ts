import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, keyOf, type RowModel } from './define';

/** `{id, uid, name}` of an owners group, or null: the short form of the plain schema replies (docs/contract.md §5.9). */
export async function ownersRef(groups: RowModel, ownersUid: string | null): Promise<{ id: string; uid: string; name: string } | null> {
  if (!ownersUid) return null;
  const group = await groups.findOne({ where: { uid: ownersUid } });
  return group ? { id: group.uid, uid: group.uid, name: group.name } : null;
}

export function defineSchema(sequelize: Sequelize) {
  return defineModel(sequelize, 'Schema', 'schemas', {
    name: { type: DataTypes.STRING(255), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    description: { type: DataTypes.STRING(500), allowNull: true },
    type: { type: DataTypes.STRING(16), allowNull: false },
    ownersUid: { type: DataTypes.CHAR(32), allowNull: true },
    /** The mode an upload of a new version is judged in (issue 45). */
    compatibility: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'NONE' },
  });
}

export function defineSchemaVersion(sequelize: Sequelize) {
  return defineModel(sequelize, 'SchemaVersion', 'schema_versions', {
    schemaUid: { type: DataTypes.CHAR(32), allowNull: false },
    versionName: { type: DataTypes.STRING(50), allowNull: false },
    versionKey: keyOf('versionName', 'version_key'),
    schemaBody: { type: DataTypes.TEXT('long'), allowNull: false },
  });
}
