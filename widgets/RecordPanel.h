#pragma once

#include "LatestJob.h"
#include "review/DiagnosisRecord.h"

#include <QWidget>

#include <optional>

class InSightWork;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class ViewState;

// The Record dock: the diagnosis record of the loaded trace, drafted from it
// on load (objectives checked with the percentile's interval, arrival process
// and request shape, configuration, trace boundaries and clock caveats, the
// suspect and its experiment, a stop rule) and edited here. "Measure" checks
// the record again on the current scope (the slice, or the whole trace),
// keeping everything a person wrote; measuring runs off the GUI thread.
// Records open and save as versioned JSON (model/review/RECORD-SCHEMA.md).
class RecordPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RecordPanel(ViewState *state, QWidget *parent = nullptr);
    ~RecordPanel() override;

    // The record as shown, with every edit applied.
    DiagnosisRecord record() const;
    void setRecord(const DiagnosisRecord &record);

    // Checks the record again on the current scope, off the GUI thread.
    void measure();
    bool isComputing() const { return m_job.isRunning(); }

    bool saveTo(const QString &path, QString *error) const;
    bool openFrom(const QString &path, QString *error);
    void saveWithDialog();
    void openWithDialog();

    QTableWidget *objectivesTable() const { return m_objectives; }
    QTableWidget *configurationTable() const { return m_configuration; }
    QLabel *statusLabel() const { return m_status; }

signals:
    // A record was drafted, measured or opened (not emitted for typing).
    void recordReplaced();

private:
    QWidget *createClaimBox();
    QWidget *createCoordinatesBox();
    QWidget *createEvidenceBox();
    QWidget *createStopRuleBox();
    void onStoreChanged();
    // The record as the panel shows it (fields and the last measurement shown).
    DiagnosisRecord shownRecord() const;
    void showMeasured();
    void addObjectiveRow(const Objective &objective, const ObjectiveCheck *check);
    void addConfigurationRow(const ManifestEntry &entry);
    void showMeasured(const DiagnosisRecord &record);

    ViewState *m_state = nullptr;
    LatestJob m_job{this};
    QString m_traceName; // file name(s) of the loaded trace
    // The measured parts as last measured or opened; the widgets hold the rest.
    DiagnosisRecord m_measured;

    QLabel *m_status = nullptr;
    QLineEdit *m_title = nullptr;
    QLineEdit *m_author = nullptr;
    QLineEdit *m_date = nullptr;
    QPlainTextEdit *m_claim = nullptr;
    QTableWidget *m_objectives = nullptr;
    QLabel *m_checks = nullptr;
    QComboBox *m_boundary = nullptr;
    QComboBox *m_metric = nullptr;
    QDoubleSpinBox *m_percentile = nullptr;
    QLabel *m_arrival = nullptr;
    QLineEdit *m_arrivalNote = nullptr;
    QLabel *m_shape = nullptr;
    QLineEdit *m_shapeNote = nullptr;
    QTableWidget *m_configuration = nullptr;
    QLabel *m_boundaries = nullptr;
    QLineEdit *m_boundariesNote = nullptr;
    QLineEdit *m_workloadNote = nullptr;
    QLineEdit *m_suspect = nullptr;
    QLabel *m_suspectSource = nullptr;
    QPlainTextEdit *m_evidence = nullptr;
    QLineEdit *m_symptom = nullptr;
    QPlainTextEdit *m_test = nullptr;
    QDoubleSpinBox *m_materialShare = nullptr;
    QDoubleSpinBox *m_minimumGain = nullptr;
    QLineEdit *m_representativeLoad = nullptr;
    QPlainTextEdit *m_guardrails = nullptr;
    QLabel *m_verdict = nullptr;
    // A measurement taken after a live refresh while out of sight: shown
    // once the panel is looked at, or when the record is read (record()).
    std::optional<DiagnosisRecord> m_kept;
    InSightWork *m_show = nullptr;
    bool m_showMayWait = false;
};
