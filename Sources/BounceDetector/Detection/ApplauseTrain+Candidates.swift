/// How the detector hears its decided candidates in the stream's applause (`ApplauseTrain`).
extension ApplauseTrain {
    /// The applause rule with `parameters`' settings (`DetectorParameters.applauseTolerance` and those after it).
    init(parameters: DetectorParameters) {
        let period = parameters.applausePeriodSeconds
        self.init(periodSamples: Int64(parameters.samples(period.lowerBound))...Int64(parameters.samples(period.upperBound)),
                  tolerance: parameters.applauseTolerance, speedUp: parameters.applauseSpeedUp,
                  alivePeriods: parameters.applauseAlivePeriods, skips: parameters.applauseSkips,
                  densityCount: parameters.applauseDensityCount,
                  densitySamples: Int64(parameters.samples(parameters.applauseDensitySeconds)),
                  densityGrowths: parameters.applauseDensityGrowths, densityLevelDB: parameters.applauseDensityLevelDB,
                  speedUpLouderDB: parameters.applauseSpeedUpLouderDB)
    }

    /// Notes a candidate at `onset` that `rule` decided (only one that counts as a clap: `isClapLike`) and returns
    /// whether it falls within applause and is not far sharper than every clap around it
    /// (`DetectorParameters.applauseClearerDB`: a ball struck by the phone while a crowd claps further off).
    mutating func hears(_ onset: Int64, _ features: ImpactFeatures, rule: CandidateRule,
                        parameters: DetectorParameters) -> Bool {
        let sharper = parameters.applauseClearerDB > 0
            && features.attackDB >= loudestAttackDB + parameters.applauseClearerDB
        let applauding = Self.isClapLike(features, rule, parameters: parameters)
            ? note(onset, attackDB: features.attackDB, levelDB: features.bandLevelsDB.max())
            : applauding(at: onset)
        return applauding && !sharper
    }

    /// Whether a candidate counts as a clap of a possible train: it rose abruptly in its bands, with energy over the
    /// room, and did not hold on (a squeak, a voice: a squeak and a step between two strokes once made a train with
    /// them). A step's thud still counts: the claps' first frames often thud as low.
    private static func isClapLike(_ features: ImpactFeatures, _ rule: CandidateRule,
                                   parameters: DetectorParameters) -> Bool {
        guard parameters.applauseTolerance > 0, features.attackDB >= parameters.applauseAttackDB else { return false }
        switch rule {
        case .noEnergy, .fewBands, .held: return false
        default: return true
        }
    }
}
