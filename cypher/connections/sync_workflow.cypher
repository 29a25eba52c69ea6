// The workflow a sync run was started as (to ask Temporal whether it still runs).
MATCH (y:Sync {id: $id})
RETURN y.workflow_id AS workflow_id, y.run_id AS run_id
